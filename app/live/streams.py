"""A Server-Sent Events stream of one conversation's messages, and the limits on open streams.

The event id of every message is its id, and ids grow within a conversation, so a client that reconnects
with `Last-Event-ID` (the header, or `last_event_id` in the query where a header cannot be set) is sent
everything after it, read from the database. The bus only says "something new in this channel": every
wake-up reads the messages after the last id sent, so duplicates and missed notifications cost a query,
never a message. While the bus cannot reach the other processes, the stream reads the database every
POLL_SECONDS instead of waiting for notifications.

A comment goes out every HEARTBEAT_SECONDS: proxies and load balancers see traffic (HAProxy's server
timeout is longer), and a client whose connection is gone is noticed. A stream ends after
MAX_STREAM_SECONDS (clients reconnect at once and resume), so identity and access are checked again and
long-lived clients spread over the processes as they restart.
"""

from __future__ import annotations

import asyncio
import random
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from app.errors import ApiError, InvalidRequest, TooManyStreams
from app.live.bus import LiveBus
from app.live.fanout import DROPPED

HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 2.0
"""Between database reads while the bus is down (messages still arrive within about this)."""
MAX_STREAM_SECONDS = 1800.0
RETRY_MILLISECONDS = 1500
"""What clients are told to wait before reconnecting after a stream ended."""


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
) -> ServerSentEvent:
    """The response: `retry` first, then the messages after `after`, live ones as they come. `release`
    (from `OpenStreams.admit`) is called when the stream ends, or when it is dropped unstarted."""
    events = _events(bus, channel, after, read_after, release)
    weakref.finalize(events, release)
    return ServerSentEvent(events, retry_duration=RETRY_MILLISECONDS)


async def _events(
    bus: LiveBus, channel: str, after: int, read_after: ReadAfter, release: Callable[[], None]
) -> AsyncIterator[ServerSentEventMessage]:
    try:
        ends_at = time.monotonic() + MAX_STREAM_SECONDS * random.uniform(0.9, 1.0)
        async with bus.subscribe(channel) as subscription:
            # Subscribed before the first read: a message stored in between is read now or announced.
            last = after
            for message in await _read(read_after, last):
                last = message.id
                yield _event(message)
            while time.monotonic() < ends_at:
                wait = HEARTBEAT_SECONDS if bus.connected else POLL_SECONDS
                item = await subscription.get(min(wait, max(ends_at - time.monotonic(), 0.0)))
                if item is DROPPED:
                    return
                if item is None and bus.connected:
                    yield ServerSentEventMessage(data=None, comment="")
                    continue
                # A notification, RESYNC, or a poll while the bus is down: read what is new.
                for message in await _read(read_after, last):
                    last = message.id
                    yield _event(message)
    except ApiError:
        return  # the conversation is gone or no longer this reader's: the client's reconnect is refused
    finally:
        release()


async def _read(read_after: ReadAfter, after: int) -> Sequence[LiveMessage]:
    """Shielded: a client that leaves during a read cancels the stream, not the read, whose session then
    returns its connection to the pool instead of leaving it to the garbage collector."""
    return await asyncio.shield(read_after(after))


def _event(message: LiveMessage) -> ServerSentEventMessage:
    return ServerSentEventMessage(data=message.body, event="message", id=message.id)


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
