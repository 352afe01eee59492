"""Calls per caller in a fixed window (tool calls per token, registrations per client address), shared by
every process through Redis when it is configured, else counted in this process's store (the setup
without Redis runs one process)."""

from __future__ import annotations

import asyncio
import math
import time

import msgspec
from litestar.stores.base import Store
from redis.asyncio import Redis

from app.config import RateLimit

_SPEND = """
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {hits, ttl}
"""


class _Window(msgspec.Struct, array_like=True):
    hits: int
    ends_at: float


class CallBudget:
    def __init__(self, limit: RateLimit, redis: Redis | None, prefix: str, store: Store) -> None:
        """`prefix` begins the caller's Redis key; `store` holds the windows without Redis."""
        self.limit = limit
        self.redis = redis
        self.prefix = prefix
        self.store = store
        self._lock = asyncio.Lock()

    async def spend(self, caller: str) -> int:
        """Count one call of `caller`: 0 when it may run, else the seconds until its window ends."""
        if self.redis is not None:
            hits, ttl = await self.redis.eval(  # type: ignore[misc]
                _SPEND, 1, f"{self.prefix}{caller}", self.limit.seconds
            )
            return 0 if int(hits) <= self.limit.requests else max(1, int(ttl))
        async with self._lock:
            now = time.time()
            raw = await self.store.get(caller)
            window = msgspec.json.decode(raw, type=_Window) if raw else None
            if window is None or window.ends_at <= now:
                window = _Window(0, now + self.limit.seconds)
            window.hits += 1
            await self.store.set(
                caller, msgspec.json.encode(window), expires_in=math.ceil(window.ends_at - now)
            )
        return 0 if window.hits <= self.limit.requests else max(1, math.ceil(window.ends_at - now))
