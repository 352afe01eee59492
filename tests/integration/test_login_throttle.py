"""Password work a stranger can cause: attempts are reserved before argon2 runs (parallel requests cannot
slip past), keyed on the client the trusted proxy names, with growing delays rather than a lockout; the
work per client and the sign-ups per client are bounded; a sign-up does not flush every worker's caches."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace

import httpx
import pytest
import redis as sync_redis
import redis.asyncio as redis
from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.login_throttle import PER_CLIENT, PER_EMAIL_AND_CLIENT, SIGNUPS_PER_CLIENT
from app.config import Settings
from app.db import redis_connection
from app.db.cache_generation import cache_generation
from app.db.models import User
from app.db.transactions import unit_of_work
from app.main import create_app
from app.services.projects import Projects
from tenants.scope import operator_scope
from tests.console_helpers import CSRF_FIELD, PASSWORD, Console, concurrent_clients, use_memory_stores
from tests.factories import Tenant
from tests.integration.public.servers import running_server, server_env
from tests.services import REDIS_URL, require_redis


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def throttled_app(
    request: pytest.FixtureRequest, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Litestar]:
    """The console on the in-process store, and on Redis shared by workers. Redis calls get 30 s, not the
    production 2 s: forty logins at once on a test machine busy with other workers have waited longer
    than 2 s for their turn on the event loop, and were answered 503 as if Redis were down."""
    if request.param == "memory":
        app = create_app(settings)
        use_memory_stores(app)
        yield app
        return
    require_redis()
    monkeypatch.setitem(redis_connection.TIMEOUTS, "socket_timeout", 30.0)
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    app = create_app(replace(settings, redis_url=REDIS_URL, redis_prefix=prefix))
    use_memory_stores(app)
    yield app
    async with redis.Redis.from_url(REDIS_URL) as client:
        keys = [key async for key in client.scan_iter(f"{prefix}*")]
        if keys:
            await client.delete(*keys)


async def concurrent_logins(console: Console, emails: list[str], password: str) -> list[int]:
    await console.get("/login")
    responses = await asyncio.gather(
        *(
            console.client.post(
                "/login", data={"_csrf_token": console.csrf, "email": email, "password": password}
            )
            for email in emails
        )
    )
    return [response.status_code for response in responses]


@pytest.fixture(params=["file", pytest.param("redis", marks=pytest.mark.redis)])
def store_env(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """A server's environment with its counters in files (one process), or in Redis (any number)."""
    env = {"HEARKEN_SECRET_KEY": uuid.uuid4().hex}  # counters in the shared ./var store start afresh
    if request.param == "file":
        yield env
        return
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    yield {**env, "HEARKEN_REDIS_URL": REDIS_URL, "HEARKEN_REDIS_PREFIX": prefix}
    with sync_redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


async def test_parallel_wrong_passwords_cannot_bypass_the_throttle(
    database_url: str, owner: User, store_env: dict[str, str]
) -> None:
    """Against a running server: 40 wrong passwords at once for one email."""
    env = {**server_env(database_url), **store_env}
    with running_server(env) as base:
        async with httpx.AsyncClient(base_url=base, timeout=120) as client:
            page = await client.get("/login")
            token = CSRF_FIELD.search(page.text)
            assert token is not None
            form = {"_csrf_token": token.group(1), "email": owner.email, "password": "wrong password"}
            responses = await asyncio.gather(*(client.post("/login", data=form) for _ in range(40)))
    statuses = [response.status_code for response in responses]
    assert statuses.count(400) == PER_EMAIL_AND_CLIENT.free
    assert statuses.count(429) == 40 - PER_EMAIL_AND_CLIENT.free


async def test_password_work_per_client_is_bounded_for_unknown_emails(throttled_app: Litestar) -> None:
    emails = [f"nobody{i}@nowhere.example" for i in range(PER_CLIENT.free + 10)]
    async with concurrent_clients(throttled_app) as (client,):
        statuses = await concurrent_logins(Console(client), emails, "whatever password")
    assert statuses.count(400) == PER_CLIENT.free
    assert statuses.count(429) == 10


async def test_signups_per_client_are_limited(console: Console) -> None:
    await console.get("/signup")
    statuses = []
    for i in range(SIGNUPS_PER_CLIENT.free + 1):
        response = await console.post(
            "/signup",
            {"org_name": f"Org {i}", "email": f"founder{i}@many.example", "password": PASSWORD},
            follow_redirects=False,
        )
        statuses.append(response.status_code)
        console.client.cookies.clear()  # a new visitor each time, from the same address
        await console.get("/signup")
    assert statuses == [303] * SIGNUPS_PER_CLIENT.free + [429]


async def test_a_signup_leaves_the_workers_caches_alone(
    console: Console, settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    generation = cache_generation(settings)
    before = await generation.current()
    await console.get("/signup")
    created = await console.post(
        "/signup",
        {"org_name": "Quiet Org", "email": "quiet@org.example", "password": PASSWORD},
        follow_redirects=False,
    )
    assert created.status_code == 303
    assert await generation.current() == before
    async with unit_of_work(session_maker) as session:  # a change the caches do hold still moves it
        scope = operator_scope(tenant.org_id, "tests")
        await Projects(session, scope).create(name="Another")
    assert await generation.current() != before


def proxied_login(client: httpx.Client, base: str, visitor: str, email: str, password: str) -> httpx.Response:
    page = client.get(f"{base}/login", headers={"X-Forwarded-For": visitor})
    token = CSRF_FIELD.search(page.text)
    assert token is not None
    return client.post(
        f"{base}/login",
        data={"_csrf_token": token.group(1), "email": email, "password": password},
        headers={"X-Forwarded-For": visitor},
        follow_redirects=False,
    )


async def test_behind_the_proxy_one_visitor_cannot_lock_out_another(database_url: str, owner: User) -> None:
    env = server_env(database_url, HEARKEN_TRUSTED_PROXIES="127.0.0.1")
    env["HEARKEN_SECRET_KEY"] = uuid.uuid4().hex  # counters in the shared ./var store start afresh
    with running_server(env) as base, httpx.Client() as attacker, httpx.Client() as user:
        statuses = [
            proxied_login(attacker, base, "203.0.113.9", owner.email, "wrong password").status_code
            for _ in range(PER_EMAIL_AND_CLIENT.free + 1)
        ]
        assert statuses == [400] * PER_EMAIL_AND_CLIENT.free + [429]
        waited = proxied_login(attacker, base, "203.0.113.9", owner.email, "wrong password")
        delay = re.search(r"Try again in (\d+) seconds", waited.text)
        assert delay is not None and int(delay.group(1)) <= PER_EMAIL_AND_CLIENT.first_delay  # not a lockout
        signed_in = proxied_login(user, base, "198.51.100.4", owner.email, PASSWORD)
        assert signed_in.status_code == 303 and signed_in.headers["location"] == "/projects"
