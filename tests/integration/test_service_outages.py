"""When Redis or PostgreSQL cannot be reached the service answers at once: public submissions go on with
per-process rate limits while Redis is away, and what needs the database answers 503 `unavailable`,
never 500 and never a hang. The cache generation stays unambiguous when Redis loses its keys."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace

import pytest
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.db.cache_generation import RedisGeneration
from app.db.transactions import unit_of_work
from app.ingest.budgets import Hit, RedisCounters
from app.main import create_app
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, valid_bodies
from tests.server_processes import free_port
from tests.services import REDIS_URL, require_redis

RATING = "/api/v1/rating/submit"
FEEDBACK = "/api/v1/feedback/submit"


def nobody_listening() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"


async def test_without_redis_submissions_and_reads_go_on_with_limits_per_process(
    settings: Settings, tenant: Tenant
) -> None:
    settings = replace(settings, redis_url=nobody_listening(), rate_limit_client=RateLimit(3, 60))
    bodies = valid_bodies(tenant.project_key)
    visitor = {"Origin": ALLOWED}
    async with AsyncTestClient(app=create_app(settings)) as client:
        statuses = [
            (await client.post(RATING, json=bodies[RATING], headers=visitor)).status_code for _ in range(4)
        ]
        assert statuses == [204, 204, 204, 429]  # counted in this process
        feedback = await client.post(FEEDBACK, json=bodies[FEEDBACK], headers=visitor)
        assert feedback.status_code == 200, feedback.text
        listed = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings", headers=tenant.headers)
        assert listed.status_code == 200
        assert listed.json()["pagination"]["total"] == 3
        # A change that would announce itself through Redis is still committed and answered.
        created = await client.post(
            "/api/v1/webhooks", json={"url": "https://hooks.example/in"}, headers=tenant.headers
        )
        assert created.status_code == 201, created.text


async def test_a_process_that_lost_redis_trusts_no_cache(
    settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """While Redis is away a revocation made elsewhere cannot be announced: tokens are looked up again."""
    settings = replace(settings, redis_url=nobody_listening())
    async with AsyncTestClient(app=create_app(settings)) as client:
        path = f"/api/v1/projects/{tenant.project_id}"
        assert (await client.get(path, headers=tenant.read_headers)).status_code == 200
        async with unit_of_work(session_maker) as session:
            tokens = AccessTokens(session, operator_scope(tenant.org_id))
            read = next(token for token in await tokens.list() if token.label == "read")
            await tokens.revoke(read.id)
        assert (await client.get(path, headers=tenant.read_headers)).status_code == 401
        assert (await client.get(path, headers=tenant.headers)).status_code == 200


@pytest.mark.redis
async def test_budgets_fall_back_to_the_process_and_return_to_redis() -> None:
    require_redis()
    prefix = f"hearken-test-{uuid.uuid4().hex}:"
    counters = RedisCounters(Redis.from_url(nobody_listening()), prefix, prefix + "cache_generation")
    hit = Hit(client="c", client_seconds=60, client_limit=5, project="p", project_seconds=60)
    (generation, client_count, project_count), *_ = await counters.hit_many([hit, hit])
    assert generation < 0  # unknown: no cache may trust it
    assert (client_count.hits, project_count.hits if project_count else None) == (1, 1)
    await counters.close()


@pytest.mark.redis
async def test_generations_are_unambiguous_across_a_redis_restart() -> None:
    """Redis keeps the generation in memory only: a restart loses it. It then starts again from a random
    value, so a process whose cache was filled before the restart cannot take the new count for its old
    one, whether the key is recreated by a read, by a bump or by the budget script."""
    require_redis()
    prefix = f"hearken-test-{uuid.uuid4().hex}:"
    key = prefix + "cache_generation"
    async with Redis.from_url(REDIS_URL) as admin:
        generation = RedisGeneration(REDIS_URL, key)
        seen = []
        for _ in range(3):
            before = await generation.current()
            await generation.bump()
            after = await generation.current()
            assert after == before + 1
            seen += [before, after]
            await admin.delete(key)  # what a restart without persistence does
        await generation.bump()  # a bump on a lost key starts from a fresh random value too
        seen.append(await generation.current())
        await admin.delete(key)

        counters = RedisCounters(Redis.from_url(REDIS_URL), prefix, key)
        ((from_script, _, _),) = await counters.hit_many(
            [Hit(client="c", client_seconds=60, client_limit=5, project=None, project_seconds=60)]
        )
        seen.append(from_script)
        assert from_script == await generation.current()
        await counters.close()
        await admin.delete(*[k async for k in admin.scan_iter(f"{prefix}*")])
        assert generation.client is not None
        await generation.client.aclose()
    assert len({value for value in seen}) == len(seen)
    assert min(seen) > 2**32


@pytest.mark.postgres
async def test_postgres_down_answers_503_unavailable_at_once(settings: Settings, tenant: Tenant) -> None:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL only")
    down = settings.database_url.replace("127.0.0.1:5432", f"127.0.0.1:{free_port()}")
    assert down != settings.database_url
    app = create_app(replace(settings, database_url=down))
    bodies = valid_bodies(tenant.project_key)
    async with AsyncTestClient(app=app) as client:
        started = time.monotonic()
        for method, path, body, headers in (
            ("GET", f"/api/v1/projects/{tenant.project_id}/ratings", None, tenant.headers),
            ("POST", RATING, bodies[RATING], {"Origin": ALLOWED}),
            ("POST", FEEDBACK, bodies[FEEDBACK], {"Origin": ALLOWED}),
        ):
            response = await client.request(method, path, json=body, headers=headers)
            assert response.status_code == 503, (path, response.text)
            assert response.json()["error"] == "unavailable"
        assert time.monotonic() - started < 10


async def test_without_redis_console_pages_say_the_service_is_unavailable(settings: Settings) -> None:
    """Console sessions live in Redis: a signed-in page cannot be served, and says so as a page."""
    settings = replace(settings, redis_url=nobody_listening())
    async with AsyncTestClient(app=create_app(settings)) as client:
        page = await client.get("/projects", cookies={"hearken_session": "x" * 40}, follow_redirects=False)
    assert (page.status_code, page.headers["retry-after"]) == (503, "5")
    assert page.headers["content-type"].startswith("text/html")
    assert "Temporarily unavailable" in page.text and "try again in a moment" in page.text.lower()
