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
    """One subscriber's notifications of one channel: payloads (str) or a Signal."""

    def __init__(self, channel: str, size: int = QUEUE_SIZE) -> None:
        self.channel = channel
        self.queue: asyncio.Queue[str | Signal] = asyncio.Queue(maxsize=size)
        self.dropped = False

    def offer(self, item: str | Signal) -> bool:
        """Queue `item` without waiting; False when the queue is full."""
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            return False
        return True

    def drop(self) -> None:
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(DROPPED)

    async def get(self, timeout: float | None = None) -> str | Signal | None:
        """The next notification; None when `timeout` seconds passed without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def __aiter__(self) -> AsyncIterator[str | Signal]:
        return self._items()

    async def _items(self) -> AsyncIterator[str | Signal]:
        while True:
            item = await self.queue.get()
            if item is DROPPED:
                return
            yield item


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
