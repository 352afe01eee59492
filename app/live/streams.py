"""A Server-Sent Events stream of one conversation's messages, and the limits on open streams.

The event id of every message is its id, and ids grow within a conversation, so a client that reconnects
with `Last-Event-ID` (the header, or `last_event_id` in the query where a header cannot be set) is sent
everything after it, read from the database. The bus only says "something new in this channel": every
wake-up reads the messages after the last id sent, so duplicates and missed notifications cost a query,
never a message. While the bus cannot reach the other processes, the stream reads the database every
POLL_SECONDS instead of waiting for notifications (both from `fanout.py`: one ticker per process wakes
the streams, none has a timer of its own).

A comment goes out every HEARTBEAT_SECONDS: proxies and load balancers see traffic (HAProxy's server
timeout is longer), and a client whose connection is gone is noticed. A stream ends after
MAX_STREAM_SECONDS (clients reconnect at once and resume), so identity and access are checked again and
long-lived clients spread over the processes as they restart.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from litestar.response import ServerSentEvent
from litestar.types import Receive, Scope, Send

from app.errors import ApiError, InvalidRequest, TooManyStreams
from app.live.bus import LiveBus
from app.live.fanout import DROPPED
from app.operations.continued import CONTINUED

MAX_STREAM_SECONDS = 1800.0
RETRY_MILLISECONDS = 1500
"""What clients are told to wait before reconnecting after a stream ended."""
HEAD = (
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"connection", b"keep-alive"),
    (b"x-accel-buffering", b"no"),
)
RETRY = f"retry: {RETRY_MILLISECONDS}\r\n".encode()
HEARTBEAT = b": \r\n\r\n"
"""An empty comment: ignored by EventSource, seen by proxies."""


@dataclass(frozen=True)
class LiveMessage:
    """A message as its stream sends it: its id (the event id) and its JSON body."""

    id: int
    body: str


ReadAfter = Callable[[int], Awaitable[Sequence[LiveMessage]]]
"""The messages after an id, oldest first, read in a session of its own; ApiError (the conversation is
gone, access was taken away) ends the stream."""


def conversation_channel(conversation_id: object) -> str:
    return f"conversation:{conversation_id}"


def resume_after(header: str | None, query: int | None) -> int | None:
    """Where a client resumes: the `Last-Event-ID` header (an EventSource reconnecting), else the
    `last_event_id` query parameter (the first connection of a page that already shows messages); None:
    from the conversation's latest message on."""
    if header is not None and header.strip():
        text = header.strip()
        if not text.isdigit() or len(text) > 18:
            raise InvalidRequest("Last-Event-ID", "must be a message id (a whole number)")
        return int(text)
    return query


def message_stream(
    bus: LiveBus, channel: str, after: int, read_after: ReadAfter, release: Callable[[], None]
) -> LiveEvents:
    """The response: `retry` first, then the messages after `after`, live ones as they come. `release`
    (from `OpenStreams.admit`) is called when the stream ends, or when it is dropped unstarted."""
    return LiveEvents(EventStream(bus, channel, after, read_after, release))


class LiveEvents(ServerSentEvent):
    """What a route returns: Litestar's Server-Sent Events response as far as the route and the OpenAPI
    document see, answered by an `EventStream`."""

    def __init__(self, stream: EventStream) -> None:
        super().__init__((), retry_duration=RETRY_MILLISECONDS)
        self.stream = stream

    def to_asgi_response(  # type: ignore[override]
        self,
        app: Any,
        request: Any,
        *,
        headers: dict[str, str] | None = None,
        cookies: Iterable[Any] | None = None,
        **_: Any,
    ) -> EventStream:
        extra = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in (headers or {}).items()
        ]
        extra += [cookie.to_encoded_header() for cookie in (*self.cookies, *(cookies or ()))]
        if extra:
            self.stream.head = HEAD + tuple(extra)
        return self.stream


class EventStream:
    """The ASGI answer of one stream, kept small because a process holds thousands: it starts the answer
    through the application and, where the serving wrapper offers it, follows outside it (what the
    request needed is then let go); one coroutine sends the events, waiting on its subscription alone;
    the client's leaving (an ASGI `http.disconnect`) is watched by one small task that hangs the
    subscription up. No timers of its own: the fanout's ticker wakes it for heartbeats, polls and its
    age."""

    __slots__ = ("after", "bus", "channel", "head", "read_after", "release")

    def __init__(
        self, bus: LiveBus, channel: str, after: int, read_after: ReadAfter, release: Callable[[], None]
    ) -> None:
        self.bus = bus
        self.channel = channel
        self.after = after
        self.read_after = read_after
        self.release = release
        self.head: tuple[tuple[bytes, bytes], ...] = HEAD

    def __del__(self) -> None:
        self.release()  # dropped unstarted (released already if it ran)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = {"type": "http.response.start", "status": 200, "headers": list(self.head)}
        try:
            await send(start)  # type: ignore[arg-type]
            if start["status"] != 200:  # the request's commit failed: the answer became a 503
                self.release()
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
        except BaseException:
            self.release()
            raise
        if CONTINUED in scope:  # the rest outside the application (app/operations/continued.py)
            scope[CONTINUED] = self.follow  # type: ignore[literal-required]
            return
        await self.follow(receive, send)

    async def follow(self, receive: Receive, send: Send) -> None:
        """The body: `retry`, then the events until the stream ends or the client leaves."""
        try:
            await send({"type": "http.response.body", "body": RETRY, "more_body": True})
            await self._follow(receive, send)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.release()

    async def _follow(self, receive: Receive, send: Send) -> None:
        ends_at = time.monotonic() + MAX_STREAM_SECONDS * random.uniform(0.9, 1.0)
        bus = self.bus
        async with bus.subscribe(self.channel) as subscription:
            # Subscribed before the first read: a message stored in between is read now or announced.
            watcher = asyncio.ensure_future(_until_disconnect(receive))
            watcher.add_done_callback(subscription.hang_up)
            try:
                last = await self._send_after(self.after, send)
                while True:
                    item = await subscription.get()
                    if item is DROPPED or time.monotonic() >= ends_at:
                        return
                    if item is None and bus.connected:
                        await send({"type": "http.response.body", "body": HEARTBEAT, "more_body": True})
                        continue
                    # A notification, RESYNC, or a tick while the bus is down: read what is new.
                    last = await self._send_after(last, send)
            except ApiError:
                return  # the conversation is gone or no longer this reader's: the reconnect is refused
            finally:
                watcher.remove_done_callback(subscription.hang_up)
                watcher.cancel()

    async def _send_after(self, after: int, send: Send) -> int:
        """Send the messages after `after` in one piece; the id of the last one sent."""
        messages = await _read(self.read_after, after)
        if messages:
            body = "".join(f"id: {m.id}\r\nevent: message\r\ndata: {m.body}\r\n\r\n" for m in messages)
            await send({"type": "http.response.body", "body": body.encode(), "more_body": True})
            after = messages[-1].id
        return after


async def _until_disconnect(receive: Receive) -> None:
    try:
        while (await receive())["type"] != "http.disconnect":
            pass
    except Exception:  # a receive that fails: the client is as good as gone
        return


async def _read(read_after: ReadAfter, after: int) -> Sequence[LiveMessage]:
    """Shielded: a client that leaves during a read cancels the stream, not the read, whose session then
    returns its connection to the pool instead of leaving it to the garbage collector."""
    return await asyncio.shield(read_after(after))


@dataclass(frozen=True)
class StreamLimits:
    per_person: int = 10
    per_project: int = 2000
    per_process: int = 10000


class OpenStreams:
    """The streams this process holds, per person (or member) and per project; a stream beyond a
    limit is refused with 429 naming the limit."""

    def __init__(self, limits: StreamLimits) -> None:
        self.limits = limits
        self.total = 0
        self.people: Counter[str] = Counter()
        self.projects: Counter[str] = Counter()

    def admit(self, person: str, project: str) -> Callable[[], None]:
        """Count one more stream; the returned function, called once, counts it out again."""
        if self.total >= self.limits.per_process:
            raise _too_many("this server's", self.limits.per_process)
        if self.people[person] >= self.limits.per_person:
            raise _too_many("one person's", self.limits.per_person)
        if self.projects[project] >= self.limits.per_project:
            raise _too_many("one project's", self.limits.per_project)
        self.total += 1
        self.people[person] += 1
        self.projects[project] += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.total -= 1
            for counter, key in ((self.people, person), (self.projects, project)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

        return release

    @contextmanager
    def admitted(self, person: str, project: str) -> Iterator[Callable[[], None]]:
        """`admit`, released again if what follows fails before the stream takes the release over."""
        release = self.admit(person, project)
        try:
            yield release
        except BaseException:
            release()
            raise


def _too_many(whose: str, limit: int) -> TooManyStreams:
    return TooManyStreams(
        f"{whose} limit of {limit} open live streams is reached; close another tab or try again later",
    )
