"""Budgets per client address per project and per project, for each endpoint: 429 with
retry_after and Retry-After, on the in-process store and on Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import redis.asyncio as redis
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.main import create_app
from tests.factories import Tenant, add_project
from tests.integration.public.conftest import ALLOWED, stored_rows, valid_bodies
from tests.services import REDIS_URL, require_redis

RATING = "/api/v1/rating/submit"


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def store_settings(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[Settings]:
    if request.param == "memory":
        yield settings
        return
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    yield replace(settings, redis_url=REDIS_URL, redis_prefix=prefix)
    async with redis.Redis.from_url(REDIS_URL) as client:
        keys = [key async for key in client.scan_iter(f"{prefix}*")]
        if keys:
            await client.delete(*keys)


def _client(settings: Settings, *, per_client: RateLimit, per_project: RateLimit) -> AsyncTestClient:
    app = create_app(replace(settings, rate_limit_client=per_client, rate_limit_project=per_project))
    return AsyncTestClient(app=app)


async def test_client_budget_then_429_with_retry_after(
    store_settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)[RATING]
    async with _client(
        store_settings, per_client=RateLimit(3, 60), per_project=RateLimit(1000, 60)
    ) as client:
        statuses = [
            (await client.post(RATING, json=body, headers={"Origin": ALLOWED})).status_code for _ in range(3)
        ]
        assert statuses == [204, 204, 204]
        refused = await client.post(RATING, json=body, headers={"Origin": ALLOWED})
    assert refused.status_code == 429
    answer = refused.json()
    assert answer["error"] == "rate_limited"
    assert 1 <= answer["retry_after"] <= 60
    assert refused.headers["retry-after"] == str(answer["retry_after"])
    assert refused.headers["access-control-allow-origin"] == ALLOWED
    assert await stored_rows(session_maker) == 3


async def test_budgets_are_per_endpoint_and_per_project(
    store_settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    other = await add_project(session_maker, tenant, name="Second")
    async with _client(
        store_settings, per_client=RateLimit(1, 60), per_project=RateLimit(1000, 60)
    ) as client:
        assert (await client.post(RATING, json=valid_bodies(tenant.project_key)[RATING])).status_code == 204
        assert (await client.post(RATING, json=valid_bodies(tenant.project_key)[RATING])).status_code == 429
        feedback = valid_bodies(tenant.project_key)["/api/v1/feedback/submit"]
        assert (await client.post("/api/v1/feedback/submit", json=feedback)).status_code == 200
        assert (await client.post(RATING, json=valid_bodies(str(other.key))[RATING])).status_code == 204


async def test_project_budget_covers_all_clients(store_settings: Settings, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)[RATING]
    async with _client(store_settings, per_client=RateLimit(100, 60), per_project=RateLimit(2, 60)) as client:
        statuses = [(await client.post(RATING, json=body)).status_code for _ in range(3)]
    assert statuses == [204, 204, 429]


async def test_a_window_ends(store_settings: Settings, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)[RATING]
    async with _client(store_settings, per_client=RateLimit(1, 1), per_project=RateLimit(1000, 60)) as client:
        assert (await client.post(RATING, json=body)).status_code == 204
        refused = await client.post(RATING, json=body)
        assert (refused.status_code, refused.json()["retry_after"]) == (429, 1)
        await asyncio.sleep(1.1)
        assert (await client.post(RATING, json=body)).status_code == 204


async def test_refused_requests_count_and_are_answered_in_order(
    store_settings: Settings, tenant: Tenant
) -> None:
    """Order of answers: 400, 404, 403, then 429; a 403 counts against the budget."""
    body = valid_bodies(tenant.project_key)[RATING]
    async with _client(
        store_settings, per_client=RateLimit(1, 60), per_project=RateLimit(1000, 60)
    ) as client:
        stranger = {"Origin": "https://attacker.example"}
        assert (await client.post(RATING, json=body, headers=stranger)).status_code == 403
        assert (await client.post(RATING, json=body, headers=stranger)).status_code == 403
        assert (await client.post(RATING, json={**body, "value": "yes"})).status_code == 400
        assert (await client.post(RATING, json=body)).status_code == 429


@pytest.mark.redis
async def test_two_apps_share_one_redis_budget(settings: Settings, tenant: Tenant) -> None:
    require_redis()
    shared = replace(settings, redis_url=REDIS_URL, redis_prefix=f"hearken-test:{uuid.uuid4().hex}:")
    body = valid_bodies(tenant.project_key)[RATING]
    limits = {"per_client": RateLimit(4, 60), "per_project": RateLimit(1000, 60)}
    async with _client(shared, **limits) as first, _client(shared, **limits) as second:
        statuses = [(await client.post(RATING, json=body)).status_code for client in (first, second) * 3]
    assert statuses == [204, 204, 204, 204, 429, 429]
    async with redis.Redis.from_url(REDIS_URL) as client:
        keys = [key.decode() async for key in client.scan_iter(f"{shared.redis_prefix}*")]
        assert keys
        assert not [key for key in keys if "testclient" in key]
        for key in keys:
            if not key.endswith("cache_generation"):  # budget windows expire; the generation stays
                assert 0 < await client.ttl(key) <= 60, key
        await client.delete(*keys)
