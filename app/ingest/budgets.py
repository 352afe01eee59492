"""Fixed-window request budgets per client address per project and per project, for each endpoint.

A window opens at a key's first hit and lasts the configured seconds. Keys hold an HMAC of the client
address, never the address, and expire with their window. The Redis store answers the cache generation
in the same round trip, so a public request costs one call to Redis.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time
from collections.abc import Sequence
from typing import Protocol
from uuid import UUID

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.config import RateLimit
from app.db.cache_generation import CacheGeneration
from app.errors import Unavailable
from app.ingest.coalescer import Coalescer

logger = logging.getLogger("hearken.budgets")

CLIENT_DIGEST_LENGTH = 32
"""Hex characters of the keyed hash kept for a client address: 128 bits, enough to never collide."""
DIGESTS_KEPT = 10_000
"""Digests remembered per process: a returning client costs no HMAC; the memory stays bounded."""


class Count(msgspec.Struct, frozen=True, gc=False):
    hits: int
    expires_in: float
    """Seconds until the window closes."""


Windows = Sequence[tuple[str, int]]
"""The (key, seconds) windows one request counts against."""
Counted = tuple[int, list[Count]]
"""The cache generation, and the count of each window after this hit."""


class CounterStore(Protocol):
    async def hit(self, windows: Windows) -> Counted:
        """Count one hit on each window; return the cache generation and the counts."""
        ...

    async def hit_many(self, batch: Sequence[Windows]) -> Sequence[Counted | BaseException]:
        """Count the hits of several requests at once: one generation read, one round trip."""
        ...


class MemoryCounters:
    """Counters of this process; the cache generation comes from its file."""

    SWEEP_ABOVE = 10_000

    def __init__(self, generation: CacheGeneration) -> None:
        self._generation = generation
        self._windows: dict[str, list[float]] = {}
        self._next_sweep = 0.0

    async def hit(self, windows: Windows) -> Counted:
        return self._count(windows, time.monotonic(), await self._generation.current())

    async def hit_many(self, batch: Sequence[Windows]) -> Sequence[Counted | BaseException]:
        now, generation = time.monotonic(), await self._generation.current()
        return [self._count(windows, now, generation) for windows in batch]

    def _count(self, windows: Windows, now: float, generation: int) -> Counted:
        self._sweep(now)
        counts = []
        for key, seconds in windows:
            window = self._windows.get(key)
            if window is None or window[1] <= now:
                window = self._windows[key] = [0, now + seconds]
            window[0] += 1
            counts.append(Count(hits=int(window[0]), expires_in=window[1] - now))
        return generation, counts

    def _sweep(self, now: float) -> None:
        """Drop closed windows now and then, so distinct clients cannot grow the dict without bound."""
        if len(self._windows) < self.SWEEP_ABOVE or now < self._next_sweep:
            return
        self._windows = {key: window for key, window in self._windows.items() if window[1] > now}
        self._next_sweep = now + 1.0


HIT_SCRIPT = """
local out = {tonumber(redis.call('GET', KEYS[1]) or '0')}
for i = 2, #KEYS do
  local hits = redis.call('INCRBY', KEYS[i], ARGV[2 * i - 3])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    ttl = tonumber(ARGV[2 * i - 2])
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
  out[#out + 1] = hits
  out[#out + 1] = ttl
end
return out
"""
"""KEYS: the generation key, then each distinct window key; ARGV: each key's hits and window (ms)."""


class RedisCounters:
    """Counters shared by every worker: one atomic script reads the generation and counts the hits.

    Concurrent requests share a script call: ratings count a whole batch of their group commit at once
    (hit_many), the other endpoints through a Coalescer. One Redis round trip serves the batch. A key
    that several requests of the batch share (their project's, a busy client's) is sent once with its
    number of hits, and each request still gets its own count: the hits are numbered in batch order,
    as if each request had incremented the key in turn.
    """

    def __init__(self, client: Redis, prefix: str, generation_key: str) -> None:
        self._client = client
        self._script = client.register_script(HIT_SCRIPT)
        self._prefix = prefix
        self._generation_key = generation_key
        self._calls: Coalescer[Windows, Counted] = Coalescer(self.hit_many, name="redis-budgets")

    async def hit(self, windows: Windows) -> Counted:
        return await self._calls.submit(windows)

    async def close(self) -> None:
        """Answers what is queued, then closes the client."""
        await self._calls.close()
        await self._client.aclose()

    async def hit_many(self, batch: Sequence[Windows]) -> Sequence[Counted | BaseException]:
        hits: dict[str, list[int]] = {}  # key -> [hits in this batch, window in seconds]
        for windows in batch:
            for key, seconds in windows:
                if (entry := hits.get(key)) is None:
                    hits[key] = [1, seconds]
                else:
                    entry[0] += 1
        args: list[int] = []
        for n, seconds in hits.values():
            args += (n, seconds * 1000)
        try:
            reply = await self._script(
                keys=[self._generation_key, *(self._prefix + key for key in hits)], args=args
            )
        except RedisError:
            logger.exception("Redis did not answer the budget check")
            return [Unavailable("rate limiting is unavailable; try again shortly")] * len(batch)
        # Each key's count before this batch, and its window's remaining time.
        before: dict[str, list[int]] = {}
        for position, (key, (n, _)) in enumerate(hits.items()):
            total, ttl = int(reply[1 + 2 * position]), int(reply[2 + 2 * position])
            before[key] = [total - n, ttl]
        generation, results = int(reply[0]), []
        for windows in batch:
            counts = []
            for key, _ in windows:
                state = before[key]
                state[0] += 1
                counts.append(Count(hits=state[0], expires_in=state[1] / 1000))
            results.append((generation, counts))
        return results


class Verdict(msgspec.Struct, frozen=True, gc=False):
    generation: int
    retry_after: int | None
    """Whole seconds to wait when a budget is spent; None when the request is within budget."""


class RateLimiter:
    def __init__(
        self, store: CounterStore, secret_key: str, per_client: RateLimit, per_project: RateLimit
    ) -> None:
        self._store = store
        self._secret = secret_key.encode()
        self._per_client = per_client
        self._per_project = per_project
        self._digests: dict[str, str] = {}

    def client_digest(self, address: str) -> str:
        digest = self._digests.get(address)
        if digest is None:
            if len(self._digests) >= DIGESTS_KEPT:
                self._digests.clear()
            digest = hmac.new(self._secret, address.encode(), hashlib.sha256).hexdigest()
            digest = self._digests[address] = digest[:CLIENT_DIGEST_LENGTH]
        return digest

    async def hit(self, endpoint: str, project_key: UUID, address: str) -> Verdict:
        """Count this request against both budgets of the project's endpoint."""
        return self._verdict(await self._store.hit(self._windows(endpoint, project_key, address)))

    async def hit_many(self, hits: Sequence[tuple[str, UUID, str]]) -> list[Verdict | BaseException]:
        """Count several (endpoint, project key, address) requests in one call to the store."""
        counted = await self._store.hit_many([self._windows(*hit) for hit in hits])
        return [c if isinstance(c, BaseException) else self._verdict(c) for c in counted]

    def _windows(self, endpoint: str, project_key: UUID, address: str) -> Windows:
        base = f"rate:{endpoint}:{project_key.hex}"
        return (
            (f"{base}:client:{self.client_digest(address)}", self._per_client.seconds),
            (f"{base}:project", self._per_project.seconds),
        )

    def _verdict(self, counted: Counted) -> Verdict:
        generation, counts = counted
        limits = (self._per_client, self._per_project)
        waits = [
            count.expires_in
            for count, limit in zip(counts, limits, strict=True)
            if count.hits > limit.requests
        ]
        return Verdict(generation, max(1, math.ceil(max(waits))) if waits else None)
