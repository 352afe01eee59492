"""Budgets on Redis under concurrency: requests that arrive together share one script call, and each
still gets its own count, so exactly the budget is admitted."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis

from app.config import RateLimit
from app.ingest.budgets import RateLimiter, RedisCounters
from tests.services import REDIS_URL, require_redis


@asynccontextmanager
async def redis_limiter(
    per_client: RateLimit, per_project: RateLimit
) -> AsyncIterator[tuple[RateLimiter, Redis, str]]:
    """A limiter on Redis under a key prefix of its own, and a client to read what it stored; the keys
    are deleted afterwards."""
    require_redis()
    prefix = f"hearken-test-{uuid.uuid4().hex}:"
    client = Redis.from_url(REDIS_URL)
    counters = RedisCounters(Redis.from_url(REDIS_URL), prefix, prefix + "cache_generation")
    try:
        yield RateLimiter(counters, "secret", per_client, per_project), client, prefix
    finally:
        await counters.close()
        keys = [key async for key in client.scan_iter(match=prefix + "*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


async def test_concurrent_hits_admit_exactly_the_budget() -> None:
    project_key = uuid.uuid4()
    async with redis_limiter(RateLimit(30, 60), RateLimit(1000, 60)) as (limiter, client, prefix):
        verdicts = await asyncio.gather(
            *(limiter.hit("rating", project_key, "203.0.113.9", spends_project=True) for _ in range(45))
        )
        other = await limiter.hit("rating", project_key, "203.0.113.10", spends_project=True)
        stored = [key.decode() async for key in client.scan_iter(match=prefix + "*")]
    refused = [v for v in verdicts if v.retry_after is not None]
    assert len(refused) == 15
    assert all(1 <= v.retry_after <= 60 for v in refused)  # type: ignore[operator]
    assert other.retry_after is None  # another client of the same project has its own budget
    assert not any("203.0.113" in key for key in stored)  # addresses are kept only as keyed hashes


async def test_requests_of_one_batch_are_counted_in_turn() -> None:
    """A key shared within a batch travels once, and each request still gets the count it would have
    had alone: the budget refuses exactly the hits past it, in batch order, and later batches go on.
    A hit past its client's budget does not spend the project's."""
    key = uuid.uuid4()
    async with redis_limiter(RateLimit(2, 60), RateLimit(3, 60)) as (limiter, client, prefix):
        first = await limiter.hit_many([("rating", key, address, True) for address in ("a", "a", "b", "a")])
        second = await limiter.hit_many([("rating", key, "c", True), ("feedback", key, "a", True)])
        project_hits = await client.get(f"{prefix}rate:rating:{key.hex}:project")
        window_ms = await client.pttl(f"{prefix}rate:rating:{key.hex}:project")
    assert [v.retry_after is None for v in first] == [True, True, True, False]  # type: ignore[union-attr]
    # "a"'s third hit was past its own budget and did not count for the project: "c" is the project's
    # fourth rating hit, past its budget of 3; feedback has budgets of its own
    assert [v.retry_after is None for v in second] == [False, True]  # type: ignore[union-attr]
    assert int(project_hits) == 4
    assert 0 < window_ms <= 60_000


async def test_refused_requests_do_not_spend_the_project_budget() -> None:
    """Neither a client past its own budget nor a request the gate refuses (404, 403) counts for the
    project: another client still gets in."""
    key = uuid.uuid4()
    async with redis_limiter(RateLimit(2, 60), RateLimit(3, 60)) as (limiter, client, prefix):
        flood = await limiter.hit_many([("rating", key, "a", True) for _ in range(10)])
        refused = await limiter.hit_many([("rating", key, f"x{i}", False) for i in range(10)])
        later = await limiter.hit("rating", key, "b", spends_project=True)
        project_hits = await client.get(f"{prefix}rate:rating:{key.hex}:project")
    assert [v.retry_after is None for v in flood] == [True, True] + [False] * 8  # type: ignore[union-attr]
    assert all(v.retry_after is None for v in refused)  # type: ignore[union-attr]
    assert later.retry_after is None
    assert int(project_hits) == 3


async def test_an_ipv6_client_is_counted_by_its_64() -> None:
    key = uuid.uuid4()
    async with redis_limiter(RateLimit(2, 60), RateLimit(100, 60)) as (limiter, _, __):
        same_host = await limiter.hit_many([("rating", key, f"2001:db8:1:2::{i}", True) for i in range(1, 4)])
        next_network = await limiter.hit("rating", key, "2001:db8:1:3::1", spends_project=True)
    assert [v.retry_after is None for v in same_host] == [True, True, False]  # type: ignore[union-attr]
    assert next_network.retry_after is None
