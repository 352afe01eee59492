"""A request that has not started its answer within REQUEST_DEADLINE_SECONDS is answered 503
`unavailable`: what a frozen database or Redis (connections accepted, never answered) would otherwise
turn into a hang.

The request runs in a task of its own and is not awaited past the deadline: cancelling a query on a
frozen PostgreSQL takes psycopg seconds more, and the caller is answered now. The abandoned task unwinds
on its own; whatever it still sends is dropped. An answer that has started (a long export streaming) is
never cut. The public submission paths do not come here: their batches have deadlines of their own, and
a task per request would cost the hot path.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from litestar.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_DEADLINE_SECONDS = 8.5
"""Above the statement timeout (8 s), so a slow statement is cancelled by PostgreSQL first; below 10 s with
room for a loaded machine and the load balancer."""
UNAVAILABLE = b'{"error":"unavailable","details":"the service did not answer in time; try again shortly"}'
UNAVAILABLE_PAGE = (
    b"<!doctype html><html lang=en><meta charset=utf-8><title>Temporarily unavailable</title>"
    b"<h1>Temporarily unavailable</h1><p>Hearken did not answer in time. Try again in a moment.</p></html>"
)
"""For a browser's page request (the console): the same 503, as a page."""

logger = logging.getLogger("hearken.deadline")
_abandoned: set[asyncio.Future[Any]] = set()


async def within_deadline(
    app: ASGIApp, scope: Scope, receive: Receive, send: Send, seconds: float = REQUEST_DEADLINE_SECONDS
) -> None:
    started = answered = False

    async def send_unless_answered(message: Message) -> None:
        nonlocal started
        if answered:
            return
        if message["type"] == "http.response.start":
            started = True
        await send(message)

    serving = asyncio.ensure_future(app(scope, receive, send_unless_answered))
    done, _ = await asyncio.wait((serving,), timeout=seconds)
    if done or started:
        await serving
        return
    answered = True
    serving.cancel()
    _abandoned.add(serving)
    serving.add_done_callback(_forget)
    logger.error("no answer within %.1f s: answered 503", seconds)
    page = _wants_page(scope)
    body = UNAVAILABLE_PAGE if page else UNAVAILABLE
    media_type = b"text/html; charset=utf-8" if page else b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", media_type),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"5"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _wants_page(scope: Scope) -> bool:
    return any(name == b"accept" and b"text/html" in value for name, value in scope.get("headers", ()))


def _forget(task: asyncio.Future[Any]) -> None:
    _abandoned.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.info("an abandoned request ended with %s", type(task.exception()).__name__)
