"""The in-process half of every live bus: the subscribers of each channel in this process, and what one
listener connection hands them.

Each subscriber has a bounded queue. Delivering never waits: a subscriber whose queue is full (its client
reads slower than messages come) is dropped, its stream ends and its client reconnects; the bus and the
other subscribers go on. What a subscriber gets is small (a message id) or RESYNC: "you may have missed
something, read from the database". Streams read the messages themselves from the database after the
last id they sent, so a duplicate, a lost notification or a RESYNC never loses or repeats a message.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

QUEUE_SIZE = 32
"""Notifications one subscriber may have waiting before it is dropped."""

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
        self._wake()
        return True

    def drop(self) -> None:
        self.dropped = True
        self.items = [DROPPED]
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self, timeout: float | None = None) -> str | Signal | None:
        """The next notification; None when `timeout` seconds passed without one."""
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

    @property
    def subscribers(self) -> int:
        return sum(len(subscribers) for subscribers in self.channels.values())

    @asynccontextmanager
    async def subscription(self, channel: str) -> AsyncIterator[Subscription]:
        subscription = Subscription(channel, self.queue_size)
        self.channels.setdefault(channel, set()).add(subscription)
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
