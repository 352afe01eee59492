"""A request whose answer has not started by the deadline is answered 503 unavailable at once, whatever
its handler is still waiting for; an answer that started (a long export) is never cut."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.operations.deadline import within_deadline


class Recorder:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


async def receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b""}


async def answer(send: Any, status: int, body: bytes = b"") -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": body})


async def test_a_hung_request_is_answered_503_and_its_late_answer_dropped() -> None:
    released = asyncio.Event()

    async def frozen(scope: Any, receive: Any, send: Any) -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            released.set()
            await answer(send, 500)  # what an unwinding handler might still send

    sent = Recorder()
    started = asyncio.get_running_loop().time()
    await within_deadline(frozen, {"type": "http"}, receive, sent, seconds=0.05)  # type: ignore[arg-type]
    assert asyncio.get_running_loop().time() - started < 1
    assert sent.messages[0]["status"] == 503
    assert json.loads(sent.messages[1]["body"])["error"] == "unavailable"
    await asyncio.wait_for(released.wait(), 1)
    await asyncio.sleep(0)
    assert len(sent.messages) == 2


async def test_a_browser_page_request_is_answered_with_a_page() -> None:
    async def frozen(scope: Any, receive: Any, send: Any) -> None:
        await asyncio.sleep(3600)

    sent = Recorder()
    page = {"type": "http", "headers": [(b"accept", b"text/html,application/xhtml+xml,*/*;q=0.8")]}
    await within_deadline(frozen, page, receive, sent, seconds=0.05)  # type: ignore[arg-type]
    assert sent.messages[0]["status"] == 503
    assert (b"content-type", b"text/html; charset=utf-8") in sent.messages[0]["headers"]
    assert b"<h1>Temporarily unavailable</h1>" in sent.messages[1]["body"]


async def test_answers_in_time_and_started_answers_pass_untouched() -> None:
    async def quick(scope: Any, receive: Any, send: Any) -> None:
        await answer(send, 200, b"ok")

    async def streaming(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(0.2)
        await send({"type": "http.response.body", "body": b"rows"})

    for app in (quick, streaming):
        sent = Recorder()
        await within_deadline(app, {"type": "http"}, receive, sent, seconds=0.05)  # type: ignore[arg-type]
        assert [m.get("status") for m in sent.messages] == [200, None]
        assert sent.messages[1]["body"] in (b"ok", b"rows")
