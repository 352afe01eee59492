"""The in-process half of every live bus: the subscribers of each channel in this process, and what one
listener connection hands them.

Each subscriber has a bounded queue. Delivering never waits: a subscriber whose queue is full (its client
reads slower than messages come) is dropped, its stream ends and its client reconnects; the bus and the
other subscribers go on. What a subscriber gets is small (a message id) or RESYNC: "you may have missed
something, read from the database". Streams read the messages themselves from the database after the
last id they sent, so a duplicate, a lost notification or a RESYNC never loses or repeats a message.

Streams wait without timers of their own: while a process has subscribers, one ticker wakes them all
every HEARTBEAT_SECONDS (each then sends its heartbeat and checks its age), or every POLL_SECONDS while
the bus cannot reach the other processes (each then reads the database). A subscriber woken by a tick
gets None, as on a timeout.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

QUEUE_SIZE = 32
"""Notifications one subscriber may have waiting before it is dropped."""
HEARTBEAT_SECONDS = 15.0
"""Between ticks while the bus reaches the other processes."""
POLL_SECONDS = 2.0
"""Between ticks while it does not (streams read the database on each: messages arrive within about
this)."""

logger = logging.getLogger("hearken.live")


class Signal(enum.Enum):
    RESYNC = "resync"
    """The bus lost its connection or got it back: notifications may have been missed."""
    DROPPED = "dropped"
    """This subscriber fell behind and was removed; its stream should end (the client resumes)."""


RESYNC = Signal.RESYNC
DROPPED = Signal.DROPPED


class Subscription:
    """One subscriber's notifications of one channel: payloads (str) or a Signal.

    A list and at most one waiting future rather than an asyncio.Queue: a process holds thousands of
    these, and a queue (four deques and an event) costs several kilobytes each."""

    __slots__ = ("channel", "dropped", "items", "size", "waiter")

    def __init__(self, channel: str, size: int = QUEUE_SIZE) -> None:
        self.channel = channel
        self.size = size
        self.items: list[str | Signal] = []
        self.waiter: asyncio.Future[None] | None = None
        self.dropped = False

    def offer(self, item: str | Signal) -> bool:
        """Queue `item` without waiting; False when the queue is full."""
        if len(self.items) >= self.size:
            return False
        self.items.append(item)
        self.wake()
        return True

    def drop(self) -> None:
        self.dropped = True
        self.items = [DROPPED]
        self.wake()

    def hang_up(self, _watcher: Any = None) -> None:
        """The client went away: as if dropped (a done callback of whatever watched for it)."""
        self.drop()

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self, timeout: float | None = None) -> str | Signal | None:
        """The next notification; None when `timeout` seconds passed without one, or on a tick."""
        if not self.items:
            loop = asyncio.get_running_loop()
            self.waiter = waiter = loop.create_future()
            timer = None if timeout is None else loop.call_later(timeout, _expire, waiter)
            try:
                await waiter
            finally:
                self.waiter = None
                if timer is not None:
                    timer.cancel()
        return self.items.pop(0) if self.items else None

    def __aiter__(self) -> AsyncIterator[str | Signal]:
        return self._items()

    async def _items(self) -> AsyncIterator[str | Signal]:
        while True:
            item = await self.get()
            if item is DROPPED:
                return
            if item is not None:
                yield item


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Fanout:
    """Channel -> this process's subscribers."""

    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self.queue_size = queue_size
        self.channels: dict[str, set[Subscription]] = {}
        self.polling = False
        """Tick every POLL_SECONDS rather than every HEARTBEAT_SECONDS (the bus is down)."""
        self._ticker: asyncio.Task[None] | None = None

    @property
    def subscribers(self) -> int:
        return sum(len(subscribers) for subscribers in self.channels.values())

    @asynccontextmanager
    async def subscription(self, channel: str) -> AsyncIterator[Subscription]:
        subscription = Subscription(channel, self.queue_size)
        self.channels.setdefault(channel, set()).add(subscription)
        self._keep_ticking()
        try:
            yield subscription
        finally:
            self._remove(subscription)

    def deliver(self, channel: str, payload: str) -> None:
        for subscription in tuple(self.channels.get(channel, ())):
            self._offer(subscription, payload)

    def broadcast(self, signal: Signal) -> None:
        """To every subscriber of every channel (the connection to the other processes changed)."""
        for subscribers in tuple(self.channels.values()):
            for subscription in tuple(subscribers):
                self._offer(subscription, signal)

    def tick(self) -> None:
        """Wake every subscriber that waits, with None."""
        for subscribers in tuple(self.channels.values()):
            for subscription in subscribers:
                subscription.wake()

    def _keep_ticking(self) -> None:
        ticker = self._ticker
        loop = asyncio.get_running_loop()
        if ticker is None or ticker.done() or ticker.get_loop() is not loop:
            self._ticker = loop.create_task(self._tick_while_subscribed(), name="live streams' ticker")

    async def _tick_while_subscribed(self) -> None:
        """Looks every POLL_SECONDS, ticks when due; ends when the last subscriber has gone."""
        ticked = time.monotonic()
        while self.channels:
            await asyncio.sleep(POLL_SECONDS)
            now = time.monotonic()
            if self.polling or now - ticked >= HEARTBEAT_SECONDS - POLL_SECONDS / 2:
                ticked = now
                self.tick()

    def end_all(self) -> None:
        """Every subscriber's stream ends (the process is stopping; clients reconnect elsewhere)."""
        for subscribers in tuple(self.channels.values()):
            for subscription in tuple(subscribers):
                self._remove(subscription)
                subscription.drop()

    def _offer(self, subscription: Subscription, item: str | Signal) -> None:
        if not subscription.offer(item):
            logger.info("a live subscriber fell %d notifications behind: dropped", self.queue_size)
            self._remove(subscription)
            subscription.drop()

    def _remove(self, subscription: Subscription) -> None:
        subscribers = self.channels.get(subscription.channel)
        if subscribers is None:
            return
        subscribers.discard(subscription)
        if not subscribers:
            del self.channels[subscription.channel]
