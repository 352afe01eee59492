"""One interface, three ways to reach the other processes:

- `InProcessBus`: a single process (SQLite): a publish is delivered to this process's subscribers.
- `RedisBus`: with HEARKEN_REDIS_URL; one pub/sub connection per process (a pattern subscription to
  every live channel), so a process's cost does not grow with its subscribers.
- `PostgresBus`: PostgreSQL without Redis; one connection per process `LISTEN`s on one channel and a
  publish is a `pg_notify` (payloads stay tiny: ids only).

A publish is delivered to this process's own subscribers at once, whatever the connection's state, and
sent to the others; what comes back from the others carries the sender's token and is not delivered twice.
While the connection is down, `connected` is False and every subscriber is told RESYNC when it goes and
when it is back (streams then read the database on a short timer until it is back, and once more after).
The listener reconnects by itself, backing off up to RECONNECT_MAX_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager
from types import FrameType

from app.live.fanout import RESYNC, Fanout, Subscription

RECONNECT_FIRST_SECONDS = 0.2
RECONNECT_MAX_SECONDS = 5.0
SEPARATOR = "\n"
"""Between the sender's token, the channel and the payload of what goes over the shared connection."""

logger = logging.getLogger("hearken.live")


class LiveBus:
    """publish(channel, payload) and subscribe(channel); `start()` and `close()` bracket a run."""

    kind = "in-process"

    def __init__(self) -> None:
        self.fanout = Fanout()
        self._lost = False
        """The connection failed and has not come back since (its loss was logged)."""
        self.token = secrets.token_hex(6)
        """This process's mark on what it sends, to know its own notifications when they come back."""

    @property
    def connected(self) -> bool:
        """The other processes are reached (streams wait for notifications rather than poll)."""
        return not self.fanout.polling

    @connected.setter
    def connected(self, value: bool) -> None:
        self.fanout.polling = not value

    async def start(self) -> None:
        """Nothing to connect to in one process."""

    async def close(self) -> None:
        """Nothing to let go of in one process."""

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Subscription]:
        return self.fanout.subscription(channel)

    async def publish(self, channel: str, payload: str) -> None:
        self.fanout.deliver(channel, payload)

    def encode(self, channel: str, payload: str) -> str:
        return SEPARATOR.join((self.token, channel, payload))

    def received(self, data: str) -> None:
        """A notification from the shared connection: delivered here unless this process sent it."""
        token, _, rest = data.partition(SEPARATOR)
        channel, _, payload = rest.partition(SEPARATOR)
        if token != self.token and channel:
            self.fanout.deliver(channel, payload)

    def went_down(self, error: BaseException) -> None:
        if self.connected or not self._lost:
            self.connected = False
            self._lost = True
            logger.warning(
                "live notifications lost their %s connection (%s): streams read the database on a timer",
                self.kind,
                type(error).__name__,
            )
            self.fanout.broadcast(RESYNC)

    def came_up(self) -> None:
        if not self.connected:
            if self._lost:
                logger.warning("live notifications reach the other processes again through %s", self.kind)
            self._lost = False
            self.connected = True
            self.fanout.broadcast(RESYNC)


InProcessBus = LiveBus

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def streams_end_on_stop(bus: LiveBus) -> Iterator[None]:
    """While serving, a stop signal first ends every open stream, then goes to the server's own handler.

    The server drains on SIGTERM: it stops accepting and waits for the requests under way to finish, and
    a live stream never finishes by itself. Ended, its clients reconnect (to another process, behind a
    load balancer) and resume from the database. Outside the main thread (an application run by a test
    client) there is no signal to take."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}

    def on_stop(number: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(bus.fanout.end_all)
        handler = previous[number]
        if callable(handler):
            handler(number, frame)
        else:  # the default disposition (or none): as if this handler had never been there
            signal.signal(number, handler)
            signal.raise_signal(number)

    for number in STOP_SIGNALS:
        signal.signal(number, on_stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            if signal.getsignal(number) is on_stop:
                signal.signal(number, handler)


class ListeningBus(LiveBus):
    """A bus whose listener task keeps one connection open, reconnecting after a failure."""

    def __init__(self) -> None:
        super().__init__()
        self.connected = False
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen_forever(), name=f"live {self.kind} listener")

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    async def publish(self, channel: str, payload: str) -> None:
        self.fanout.deliver(channel, payload)
        try:
            await self.send(self.encode(channel, payload))
        except Exception as error:  # the message is stored: a stream reads it on its timer
            self.went_down(error)

    async def send(self, data: str) -> None:
        raise NotImplementedError

    def listen(self) -> AbstractAsyncContextManager[AsyncIterator[str]]:
        """Connect and subscribe; the iterator yields what the other processes sent, and raises when the
        connection is lost (or found frozen)."""
        raise NotImplementedError

    async def _listen_forever(self) -> None:
        pause = RECONNECT_FIRST_SECONDS
        while True:
            try:
                async with self.listen() as notifications:
                    self.came_up()
                    pause = RECONNECT_FIRST_SECONDS
                    async for data in notifications:
                        self.received(data)
                raise ConnectionError("the listening connection ended")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # any failure of the connection: try again
                self.went_down(error)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX_SECONDS)
