"""How many deliveries one organization, or one endpoint, may have in flight in a process at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from uuid import UUID


class KeyedLimit:
    """At most `limit` holders per key at once, the others waiting in turn. A key's semaphore lives only
    while someone holds or waits for it, so a process that sees many organizations keeps none of them."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._slots: dict[UUID, tuple[asyncio.Semaphore, int]] = {}

    @asynccontextmanager
    async def hold(self, key: UUID) -> AsyncIterator[None]:
        semaphore, users = self._slots.get(key, (asyncio.Semaphore(self._limit), 0))
        self._slots[key] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._slots[key]
            if users == 1:
                del self._slots[key]
            else:
                self._slots[key] = (semaphore, users - 1)
