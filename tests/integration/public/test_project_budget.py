"""A project's budget is spent only by what would be stored: one client past its own budget, or sending
from a foreign origin, cannot make the project answer 429 to everyone else (project keys are public).
An IPv6 client is one client across its /64. Through a real server behind a trusted proxy, on the
in-process store and on Redis."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
import redis as sync_redis

from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, SUCCESS, valid_bodies
from tests.integration.public.servers import running_server, server_env
from tests.services import REDIS_URL, require_redis

CONTACT = "/api/v1/contact/submit"
RATING = "/api/v1/rating/submit"


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def budget_env(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    if request.param == "memory":
        yield {}
        return
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    yield {"HEARKEN_REDIS_URL": REDIS_URL, "HEARKEN_REDIS_PREFIX": prefix}
    with sync_redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


async def test_one_client_cannot_spend_the_project_budget(
    database_url: str, tenant: Tenant, budget_env: dict[str, str]
) -> None:
    env = server_env(
        database_url,
        HEARKEN_TRUSTED_PROXIES="127.0.0.1",
        HEARKEN_RATE_LIMIT_CLIENT="5/60",
        HEARKEN_RATE_LIMIT_PROJECT="20/60",
        **budget_env,
    )
    body = valid_bodies(tenant.project_key)[CONTACT]

    async def statuses(client: httpx.AsyncClient, visitor: str, origin: str, count: int) -> list[int]:
        headers = {"X-Forwarded-For": visitor, "Origin": origin}
        return [(await client.post(CONTACT, json=body, headers=headers)).status_code for _ in range(count)]

    with running_server(env) as base:
        async with httpx.AsyncClient(base_url=base) as client:
            assert await statuses(client, "203.0.113.7", ALLOWED, 25) == [SUCCESS[CONTACT]] * 5 + [429] * 20
            assert await statuses(client, "203.0.113.8", "https://evil.example", 25) == [403] * 25
            others = [(await statuses(client, f"198.51.100.{i}", ALLOWED, 1))[0] for i in range(16)]
    # the 5 stored from the first client and 15 others make the project's 20; only then is it spent
    assert others == [SUCCESS[CONTACT]] * 15 + [429]


async def test_an_ipv6_client_is_one_client_across_its_64(
    database_url: str, tenant: Tenant, budget_env: dict[str, str]
) -> None:
    env = server_env(
        database_url, HEARKEN_TRUSTED_PROXIES="127.0.0.1", HEARKEN_RATE_LIMIT_CLIENT="3/60", **budget_env
    )
    body = valid_bodies(tenant.project_key)[RATING]
    with running_server(env) as base:
        async with httpx.AsyncClient(base_url=base) as client:
            statuses = [
                (
                    await client.post(
                        RATING, json=body, headers={"X-Forwarded-For": visitor, "Origin": ALLOWED}
                    )
                ).status_code
                for visitor in [f"2001:db8:1:2::{i}" for i in range(1, 5)] + ["2001:db8:1:3::1"]
            ]
    assert statuses == [SUCCESS[RATING]] * 3 + [429, SUCCESS[RATING]]
