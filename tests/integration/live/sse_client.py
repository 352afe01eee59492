"""A Server-Sent Events stream of the application read in this process: the ASGI app is called directly
(the test client would wait for the whole body, which a stream never ends), events are parsed as they
are sent, and leaving the block disconnects the client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from litestar import Litestar


@dataclass
class Event:
    id: str | None
    event: str | None
    data: str


@dataclass
class OpenStream:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    events: asyncio.Queue[Event] = field(default_factory=asyncio.Queue)
    comments: int = 0
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    body: bytes = b""

    async def next_event(self, seconds: float = 5) -> Event:
        return await asyncio.wait_for(self.events.get(), seconds)


@contextlib.asynccontextmanager
async def sse(app: Litestar, url: str, headers: dict[str, str] | None = None) -> AsyncIterator[OpenStream]:
    parts = urlsplit(url)
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": parts.path, "raw_path": parts.path.encode(), "query_string": parts.query.encode(),
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }  # fmt: skip
    scope["headers"] = [(b"host", b"testserver")]
    scope["headers"] += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    stream = OpenStream()
    disconnect = asyncio.Event()
    sent_request = False
    pending = b""

    async def receive() -> dict[str, Any]:
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal pending
        if message["type"] == "http.response.start":
            stream.status = message["status"]
            stream.headers = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
            return
        chunk = message.get("body", b"")
        stream.body += chunk
        pending += chunk
        while b"\n\n" in pending or b"\r\n\r\n" in pending:
            block, _, pending = pending.replace(b"\r\n", b"\n").partition(b"\n\n")
            fields: dict[str, str] = {}
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    stream.comments += 1
                name, _, value = line.partition(": ")
                if name in ("id", "event", "data"):
                    fields[name] = value
            if "data" in fields:
                stream.events.put_nowait(Event(fields.get("id"), fields.get("event"), fields["data"]))
        if not message.get("more_body", False):
            stream.ended.set()

    task = asyncio.create_task(app(scope, receive, send))  # type: ignore[arg-type]
    try:
        async with asyncio.timeout(10):
            while stream.status == 0 and not task.done():
                await asyncio.sleep(0.01)
        yield stream
    finally:
        disconnect.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
