"""How a commit of new outbox work wakes the dispatchers of its own process at once (others find it at
their next poll). Each running dispatcher listens with an event of its own event loop."""

from __future__ import annotations

import asyncio
import contextlib


class OutboxSignal:
    def __init__(self) -> None:
        self._listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def listen(self) -> asyncio.Event:
        event = asyncio.Event()
        self._listeners.append((asyncio.get_running_loop(), event))
        return event

    def forget(self, event: asyncio.Event) -> None:
        self._listeners = [(loop, e) for loop, e in self._listeners if e is not event]

    def set(self) -> None:
        for loop, event in list(self._listeners):
            with contextlib.suppress(RuntimeError):  # a loop that closed meanwhile
                loop.call_soon_threadsafe(event.set)
