"""A few slots for work that holds a core for a while (decoding an image), shared fairly by tenants.

At most `slots` run at once in the process, so the CPU they take stays bounded; one organization holds
at most one of them. When a slot frees, it goes to the waiting organization served least recently (one
never served first, then in the order they came), so an organization that sent many images waits behind
its own, never in another's queue: another organization's screenshot waits for at most the decodes
already running.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class FairSlots:
    def __init__(self, slots: int) -> None:
        self._free = slots
        self._busy: set[Hashable] = set()
        self._waiting: dict[Hashable, deque[asyncio.Future[None]]] = {}
        """Each waiting organization's waiters, first come first; the dict keeps their arrival order."""
        self._served: dict[Hashable, int] = {}
        """When each organization holding or waiting for a slot last got one (a running count)."""
        self._turn = 0

    @asynccontextmanager
    async def slot(self, organization: Hashable) -> AsyncIterator[None]:
        """Hold one of the slots for `organization` while the block runs."""
        if self._free and organization not in self._busy and organization not in self._waiting:
            self._take(organization)
        else:
            await self._wait(organization)
        try:
            yield
        finally:
            self._give_back(organization)

    def _take(self, organization: Hashable) -> None:
        self._free -= 1
        self._busy.add(organization)
        self._turn += 1
        self._served[organization] = self._turn

    async def _wait(self, organization: Hashable) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(organization, deque()).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a slot as it was cancelled
                self._give_back(organization)
            else:
                self._leave_queue(organization, waiter)
            raise

    def _leave_queue(self, organization: Hashable, waiter: asyncio.Future[None]) -> None:
        queue = self._waiting.get(organization)
        if queue is not None and waiter in queue:  # else a hand-over passed it by already
            queue.remove(waiter)
            if not queue:
                del self._waiting[organization]
        if organization not in self._waiting and organization not in self._busy:
            self._served.pop(organization, None)

    def _give_back(self, organization: Hashable) -> None:
        self._free += 1
        self._busy.discard(organization)
        if organization not in self._waiting:
            self._served.pop(organization, None)
        self._hand_over()

    def _hand_over(self) -> None:
        while self._free:
            ready = [organization for organization in self._waiting if organization not in self._busy]
            if not ready:
                return
            chosen = min(ready, key=lambda organization: self._served.get(organization, 0))
            queue = self._waiting[chosen]
            waiter = queue.popleft()
            if not queue:
                del self._waiting[chosen]
            if waiter.done():  # cancelled while it waited; its task is on its way out
                continue
            self._take(chosen)
            waiter.set_result(None)
