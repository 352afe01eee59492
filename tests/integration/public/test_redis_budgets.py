"""Budgets on Redis under concurrency: requests that arrive together share one script call, and each
still gets its own count, so exactly the budget is admitted."""

from __future__ import annotations

import asyncio
import uuid

from redis.asyncio import Redis

from app.config import RateLimit
from app.public.rate_limit import RateLimiter, RedisCounters
from tests.services import REDIS_URL, require_redis


async def test_concurrent_hits_admit_exactly_the_budget() -> None:
    require_redis()
    prefix = f"hearken-test-{uuid.uuid4().hex}:"
    client = Redis.from_url(REDIS_URL)
    counters = RedisCounters(Redis.from_url(REDIS_URL), prefix, prefix + "cache_generation")
    limiter = RateLimiter(counters, "secret", RateLimit(30, 60), RateLimit(1000, 60))
    project_key = uuid.uuid4()
    try:
        verdicts = await asyncio.gather(
            *(limiter.hit("rating", project_key, "203.0.113.9") for _ in range(45))
        )
        other = await limiter.hit("rating", project_key, "203.0.113.10")
        stored = [key.decode() async for key in client.scan_iter(match=prefix + "*")]
    finally:
        await counters.close()
        keys = [key async for key in client.scan_iter(match=prefix + "*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()
    refused = [v for v in verdicts if v.retry_after is not None]
    assert len(refused) == 15
    assert all(1 <= v.retry_after <= 60 for v in refused)  # type: ignore[operator]
    assert other.retry_after is None  # another client of the same project has its own budget
    assert not any("203.0.113" in key for key in stored)  # addresses are kept only as keyed hashes
