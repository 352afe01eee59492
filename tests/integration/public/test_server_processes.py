"""Several real server processes on one database: one Redis budget, and caches that every process
drops on the very next request after a change made elsewhere (another process, the CLI)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

import httpx
import pytest
import redis.asyncio as redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.transactions import unit_of_work
from app.services.projects import Projects
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, valid_bodies
from tests.integration.public.servers import hearken, running_server, server_env
from tests.services import REDIS_URL, require_redis

RATING = "/api/v1/rating/submit"


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    yield prefix
    async with redis.Redis.from_url(REDIS_URL) as client:
        keys = [key async for key in client.scan_iter(f"{prefix}*")]
        if keys:
            await client.delete(*keys)


@pytest.mark.redis
async def test_two_servers_share_one_redis_budget(
    database_url: str, tenant: Tenant, redis_prefix: str
) -> None:
    env = server_env(
        database_url,
        HEARKEN_REDIS_URL=REDIS_URL,
        HEARKEN_REDIS_PREFIX=redis_prefix,
        HEARKEN_RATE_LIMIT_CLIENT="4/60",
        HEARKEN_TRUSTED_PROXIES="127.0.0.1",
    )
    body = valid_bodies(tenant.project_key)[RATING]
    visitor = {"X-Forwarded-For": "203.0.113.7", "Origin": ALLOWED}
    with running_server(env) as first, running_server(env) as second:
        async with httpx.AsyncClient() as client:
            statuses = [
                (await client.post(base + RATING, json=body, headers=visitor)).status_code
                for base in (first, second) * 3
            ]
            assert statuses == [204, 204, 204, 204, 429, 429]
            another = {**visitor, "X-Forwarded-For": "203.0.113.8"}
            assert (await client.post(second + RATING, json=body, headers=another)).status_code == 204
    async with redis.Redis.from_url(REDIS_URL) as store:
        keys = [key.decode() async for key in store.scan_iter(f"{redis_prefix}*")]
    windows = [key for key in keys if not key.endswith("cache_generation")]
    assert len(windows) == 3  # two client windows, one project window
    assert not [key for key in keys if "203.0.113" in key or "127.0.0.1" in key]


async def test_forwarded_for_counts_only_behind_a_trusted_proxy(database_url: str, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)[RATING]
    for trusted, expected in (("", [204, 204, 429]), ("127.0.0.0/8", [204, 204, 204])):
        env = server_env(database_url, HEARKEN_RATE_LIMIT_CLIENT="2/60", HEARKEN_TRUSTED_PROXIES=trusted)
        with running_server(env) as base:
            async with httpx.AsyncClient() as client:
                statuses = [
                    (
                        await client.post(
                            base + RATING, json=body, headers={"X-Forwarded-For": f"198.51.100.{i}"}
                        )
                    ).status_code
                    for i in range(3)
                ]
        assert statuses == expected, trusted


@pytest.fixture(params=["file", pytest.param("redis", marks=pytest.mark.redis)])
def generation_env(request: pytest.FixtureRequest) -> dict[str, str]:
    if request.param == "file":
        return {}
    require_redis()
    return {"HEARKEN_REDIS_URL": REDIS_URL, "HEARKEN_REDIS_PREFIX": f"hearken-test:{uuid.uuid4().hex}:"}


async def test_changes_elsewhere_reach_every_server_on_the_next_request(
    database_url: str, settings: Settings, tenant: Tenant, generation_env: dict[str, str]
) -> None:
    env = server_env(database_url, **generation_env)
    body = valid_bodies(tenant.project_key)[RATING]
    with running_server(env) as first, running_server(env) as second:
        async with httpx.AsyncClient() as client:
            for base in (first, second):  # fill both processes' caches
                assert (
                    await client.get(base + "/api/v1/projects", headers=tenant.headers)
                ).status_code == 200
                assert (
                    await client.post(base + RATING, json=body, headers={"Origin": ALLOWED})
                ).status_code == 204

            token_id = await _token_id(settings, tenant)
            revoked = hearken(env, "tokens", "revoke", "--id", token_id)
            assert revoked.returncode == 0, revoked.stderr
            for base in (first, second):
                assert (
                    await client.get(base + "/api/v1/projects", headers=tenant.headers)
                ).status_code == 401

            # Another process (this one) removes the origin.
            await _set_origins(_shared(settings, generation_env), tenant, ["https://moved.example"])
            for base in (first, second):
                refused = await client.post(base + RATING, json=body, headers={"Origin": ALLOWED})
                assert refused.status_code == 403
                moved = await client.post(
                    base + RATING, json=body, headers={"Origin": "https://moved.example"}
                )
                assert moved.status_code == 204


def _shared(settings: Settings, generation_env: dict[str, str]) -> Settings:
    if not generation_env:
        return settings
    return replace(settings, redis_url=REDIS_URL, redis_prefix=generation_env["HEARKEN_REDIS_PREFIX"])


async def _token_id(settings: Settings, tenant: Tenant) -> str:
    config = build_db_config(settings)
    async with config.get_session() as session:
        tokens = await AccessTokens(session, operator_scope(tenant.org_id)).list()
    await config.get_engine().dispose()
    return str(next(t.id for t in tokens if t.label == "write"))


async def _set_origins(settings: Settings, tenant: Tenant, origins: list[str]) -> None:
    config = build_db_config(settings)
    maker: async_sessionmaker[AsyncSession] = config.create_session_maker()  # type: ignore[assignment]
    async with unit_of_work(maker) as session:
        projects = Projects(session, operator_scope(tenant.org_id, "tests"))
        await projects.update(await projects.get(tenant.project_id), allowed_origins=origins)
    await config.get_engine().dispose()
