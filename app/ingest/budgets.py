"""Fixed-window request budgets per client address per project and per project, for each endpoint.

A window opens at a key's first hit and lasts the configured seconds. Keys hold an HMAC of the client
address (an IPv6 client by its /64, which one host holds whole), never the address, and expire with their
window. Every request counts against its client's window; the project's window counts only a request the
gate would store, one within its client's budget and not refused as unknown or from a foreign origin, so
one client (project keys are public) cannot spend a whole project's budget. The store decides the client
part itself, in the same step that counts, so the Redis store still answers in one round trip, together
with the cache generation.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Sequence
from typing import Protocol
from uuid import UUID

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.config import RateLimit
from app.db.cache_generation import CacheGeneration, fresh_epoch, unknown_generation
from app.db.redis_connection import RedisOutage
from app.ingest.client_addresses import client_network
from app.ingest.coalescer import Coalescer

CLIENT_DIGEST_LENGTH = 32
"""Hex characters of the keyed hash kept for a client address: 128 bits, enough to never collide."""
DIGESTS_KEPT = 10_000
"""Digests remembered per process: a returning client costs no HMAC; the memory stays bounded."""


class Count(msgspec.Struct, frozen=True, gc=False):
    hits: int
    expires_in: float
    """Seconds until the window closes."""


class Hit(msgspec.Struct, frozen=True, gc=False):
    """The windows of one request: its client's, and its project's unless the request is refused anyway
    (project None); the project's counts only when the client's count stays within `client_limit`."""

    client: str
    client_seconds: int
    client_limit: int
    project: str | None
    project_seconds: int


Counted = tuple[int, Count, Count | None]
"""The cache generation, the client window's count after this hit, and the project window's (None when
it was not counted)."""


class CounterStore(Protocol):
    async def hit(self, hit: Hit) -> Counted:
        """Count one request; return the cache generation and the counts."""
        ...

    async def hit_many(self, batch: Sequence[Hit]) -> Sequence[Counted | BaseException]:
        """Count several requests at once, in order: one generation read, one round trip."""
        ...


class UnknownGeneration:
    """The generation while Redis is down: a new value on every read, so no cache is trusted."""

    async def current(self) -> int:
        return unknown_generation()

    async def bump(self) -> None:
        return None


class MemoryCounters:
    """Counters of this process; the cache generation comes from its file."""

    SWEEP_ABOVE = 10_000

    def __init__(self, generation: CacheGeneration) -> None:
        self._generation = generation
        self._windows: dict[str, list[float]] = {}
        self._next_sweep = 0.0

    async def hit(self, hit: Hit) -> Counted:
        return self._count(hit, time.monotonic(), await self._generation.current())

    async def hit_many(self, batch: Sequence[Hit]) -> Sequence[Counted | BaseException]:
        now, generation = time.monotonic(), await self._generation.current()
        return [self._count(hit, now, generation) for hit in batch]

    def _count(self, hit: Hit, now: float, generation: int) -> Counted:
        self._sweep(now)
        client = self._add(hit.client, hit.client_seconds, now)
        if hit.project is None or client.hits > hit.client_limit:
            return generation, client, None
        return generation, client, self._add(hit.project, hit.project_seconds, now)

    def _add(self, key: str, seconds: int, now: float) -> Count:
        window = self._windows.get(key)
        if window is None or window[1] <= now:
            window = self._windows[key] = [0, now + seconds]
        window[0] += 1
        return Count(hits=int(window[0]), expires_in=window[1] - now)

    def _sweep(self, now: float) -> None:
        """Drop closed windows now and then, so distinct clients cannot grow the dict without bound."""
        if len(self._windows) < self.SWEEP_ABOVE or now < self._next_sweep:
            return
        self._windows = {key: window for key, window in self._windows.items() if window[1] > now}
        self._next_sweep = now + 1.0


HIT_SCRIPT = """
local generation = redis.call('GET', KEYS[1])
if not generation then
  generation = ARGV[#ARGV]
  redis.call('SET', KEYS[1], generation)
end
local out = {tonumber(generation)}
local count, ttl, fresh, added = {}, {}, {}, {}
for k = 2, #KEYS do
  count[k] = tonumber(redis.call('GET', KEYS[k]) or '0')
  ttl[k] = redis.call('PTTL', KEYS[k])
  fresh[k] = ttl[k] < 0
  if fresh[k] then ttl[k] = tonumber(ARGV[k - 1]) end
  added[k] = 0
end
for i = #KEYS, #ARGV - 1, 3 do
  local c, limit, p = tonumber(ARGV[i]), tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  count[c] = count[c] + 1
  added[c] = added[c] + 1
  out[#out + 1] = count[c]
  out[#out + 1] = ttl[c]
  if p > 0 and count[c] <= limit then
    count[p] = count[p] + 1
    added[p] = added[p] + 1
    out[#out + 1] = count[p]
    out[#out + 1] = ttl[p]
  else
    out[#out + 1] = -1
    out[#out + 1] = 0
  end
end
for k = 2, #KEYS do
  if added[k] > 0 then
    redis.call('INCRBY', KEYS[k], added[k])
    if fresh[k] then redis.call('PEXPIRE', KEYS[k], ttl[k]) end
  end
end
return out
"""
"""KEYS: the generation key, then each distinct window key. ARGV: each window key's window (ms), then
per request its client key's position in KEYS, its client limit and its project key's position (0: not
counted), last a fresh random generation to start from when Redis lost the key. Per request the reply
holds the client window's count and ms left, then the project's (-1: not counted)."""


class RedisCounters:
    """Counters shared by every worker: one atomic script reads the generation and counts the hits.
    While Redis does not answer, this process's own counters (MemoryCounters) take over, with an
    unknown generation, so no cache is trusted; Redis is asked again a moment later.

    Concurrent requests share a script call: ratings count a whole batch of their group commit at once
    (hit_many), the other endpoints through a Coalescer. One Redis round trip serves the batch. A key
    that several requests of the batch share (their project's, a busy client's) is sent once with its
    number of hits, and each request still gets its own count: the hits are numbered in batch order,
    as if each request had incremented the key in turn.
    """

    def __init__(
        self, client: Redis, prefix: str, generation_key: str, outage: RedisOutage | None = None
    ) -> None:
        self._client = client
        self._outage = outage or RedisOutage()
        self._fallback = MemoryCounters(UnknownGeneration())
        self._script = client.register_script(HIT_SCRIPT)
        self._prefix = prefix
        self._generation_key = generation_key
        self._calls: Coalescer[Hit, Counted] = Coalescer(self.hit_many, name="redis-budgets")

    async def hit(self, hit: Hit) -> Counted:
        return await self._calls.submit(hit)

    async def close(self) -> None:
        """Answers what is queued, then closes the client."""
        await self._calls.close()
        await self._client.aclose()

    async def hit_many(self, batch: Sequence[Hit]) -> Sequence[Counted | BaseException]:
        if self._outage.should_try():
            try:
                counted = await self._shared_hits(batch)
            except RedisError as error:
                self._outage.failed(error)
            else:
                self._outage.answered()
                return counted
        return await self._fallback.hit_many(batch)

    async def _shared_hits(self, batch: Sequence[Hit]) -> list[Counted]:
        positions: dict[str, int] = {}  # key -> its position in KEYS (the generation key is 1)
        windows: list[int] = []
        requests: list[int] = []
        for hit in batch:
            client = positions.get(hit.client)
            if client is None:
                client = positions[hit.client] = len(positions) + 2
                windows.append(hit.client_seconds * 1000)
            project = 0
            if hit.project is not None:
                project = positions.get(hit.project, 0)
                if not project:
                    project = positions[hit.project] = len(positions) + 2
                    windows.append(hit.project_seconds * 1000)
            requests += (client, hit.client_limit, project)
        reply = await self._script(
            keys=[self._generation_key, *(self._prefix + key for key in positions)],
            args=[*windows, *requests, fresh_epoch()],
        )
        generation, results = int(reply[0]), []
        for index in range(len(batch)):
            base = 1 + 4 * index
            client_count = Count(hits=int(reply[base]), expires_in=int(reply[base + 1]) / 1000)
            hits = int(reply[base + 2])
            project_count = Count(hits=hits, expires_in=int(reply[base + 3]) / 1000) if hits >= 0 else None
            results.append((generation, client_count, project_count))
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
            client = client_network(address)
            digest = hmac.new(self._secret, client.encode(), hashlib.sha256).hexdigest()
            digest = self._digests[address] = digest[:CLIENT_DIGEST_LENGTH]
        return digest

    async def hit(self, endpoint: str, project_key: UUID, address: str, *, spends_project: bool) -> Verdict:
        """Count this request against its client's budget, and its project's when `spends_project` (a
        request the gate would store) and the client is within budget."""
        return self._verdict(await self._store.hit(self._hit(endpoint, project_key, address, spends_project)))

    async def hit_many(self, hits: Sequence[tuple[str, UUID, str, bool]]) -> list[Verdict | BaseException]:
        """Count several (endpoint, project key, address, spends project) requests in one call."""
        counted = await self._store.hit_many([self._hit(*hit) for hit in hits])
        return [c if isinstance(c, BaseException) else self._verdict(c) for c in counted]

    def _hit(self, endpoint: str, project_key: UUID, address: str, spends_project: bool) -> Hit:
        base = f"rate:{endpoint}:{project_key.hex}"
        return Hit(
            client=f"{base}:client:{self.client_digest(address)}",
            client_seconds=self._per_client.seconds,
            client_limit=self._per_client.requests,
            project=f"{base}:project" if spends_project else None,
            project_seconds=self._per_project.seconds,
        )

    def _verdict(self, counted: Counted) -> Verdict:
        generation, client, project = counted
        waits = [client.expires_in] if client.hits > self._per_client.requests else []
        if project is not None and project.hits > self._per_project.requests:
            waits.append(project.expires_in)
        return Verdict(generation, max(1, math.ceil(max(waits))) if waits else None)
