"""How much anyone may register at POST /register: a budget per client address, bounded sizes, and a
bound on the clients nobody has connected."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from ipaddress import ip_network
from typing import Any

import httpx
import pytest
import redis.asyncio as redis
from litestar import Litestar
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.db.models import OAuthClient
from app.db.transactions import unit_of_work
from app.main import create_app
from app.periodic import purge_stale_oauth
from app.timestamps import utc_now
from tenants import connected_apps
from tests.integration.mcp.conftest import with_changes
from tests.integration.mcp.test_oauth import REDIRECT
from tests.mcp_clients import served
from tests.services import REDIS_URL, require_redis

LIMIT = 3


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def limited(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A server trusting 127.0.0.1 as its proxy, with a budget of LIMIT registrations per address, counted
    in the process or in Redis."""
    changes: dict[str, Any] = {
        "rate_limit_oauth_registration": RateLimit(LIMIT, 3600),
        "trusted_proxies": (ip_network("127.0.0.1/32"),),
    }
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    if request.param == "redis":
        require_redis()
        changes |= {"redis_url": REDIS_URL, "redis_prefix": prefix}
    app: Litestar = create_app(with_changes(settings, **changes))
    async with served(app) as url, httpx.AsyncClient(base_url=url) as client:
        yield client
    if request.param == "redis":
        async with redis.Redis.from_url(REDIS_URL) as client:
            keys = [key async for key in client.scan_iter(f"{prefix}*")]
            await client.delete(*keys)
        assert any(key.startswith(f"{prefix}oauth-registrations:".encode()) for key in keys)


def body(**changes: Any) -> dict[str, Any]:
    return {"client_name": "Assistant", "redirect_uris": [REDIRECT], **changes}


async def test_registrations_past_the_budget_of_an_address_wait(limited: httpx.AsyncClient) -> None:
    """Review finding 4: anyone could register without limit (150 registrations in 0.6 s)."""
    first, second = {"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"}
    for _ in range(LIMIT):
        assert (await limited.post("/register", json=body(), headers=first)).status_code == 201
    refused = await limited.post("/register", json=body(), headers=first)
    assert refused.status_code == 429, refused.text
    assert 1 <= int(refused.headers["retry-after"]) <= 3600
    assert refused.json()["error"] == "rate_limited"
    assert "retry after" in refused.json()["error_description"]
    # the address the trusted proxy names is counted, so another client behind it has its own budget
    assert (await limited.post("/register", json=body(), headers=second)).status_code == 201
    preflight = await limited.options(
        "/register", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 200  # a preflight is not counted, nor refused


async def test_a_registration_over_16_kib_is_refused(http: httpx.AsyncClient) -> None:
    """Review finding 4: one registration of 4,000 redirect URIs (4.1 MB) was stored whole."""
    large = body(software_id="x" * 900, contacts=["a" * 900] * 19)
    response = await http.post("/register", json=large)
    assert response.status_code == 413, response.text
    assert response.json() == {
        "error": "invalid_client_metadata",
        "error_description": "the registration is larger than 16384 bytes",
    }
    # sent in chunks without a declared length, it is refused as well
    chunks = [b'{"client_name": "' + b"x" * 8000] * 3

    async def streamed() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    response = await http.post("/register", content=streamed(), headers={"content-type": "application/json"})
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("changes", "error", "field"),
    [
        (
            {"redirect_uris": [f"http://127.0.0.1:{port}/cb" for port in range(1000, 1011)]},
            "invalid_redirect_uri",
            "redirect_uris",
        ),
        ({"client_name": "n" * 101}, "invalid_client_metadata", "client_name"),
        ({"software_id": "s" * 1001}, "invalid_client_metadata", "software_id"),
        ({"contacts": [f"c{i}@example.com" for i in range(21)]}, "invalid_client_metadata", "contacts"),
        ({"jwks": {"keys": [{"k" * 101: 1}]}}, "invalid_client_metadata", "jwks.keys[0]"),
    ],
)
async def test_too_many_uris_and_too_long_strings_are_refused(
    http: httpx.AsyncClient, changes: dict[str, Any], error: str, field: str
) -> None:
    """Review finding 4: the number of redirect URIs and the length of every string were unbounded."""
    response = await http.post("/register", json=body(**changes))
    assert response.status_code == 400, response.text
    assert response.json()["error"] == error
    assert response.json()["error_description"].startswith(f"{field}: ")


async def test_a_registration_within_the_limits_is_stored(http: httpx.AsyncClient) -> None:
    """Review finding 4: the limits leave room for what real assistants send."""
    uris = [f"http://127.0.0.1:{port}/callback" for port in range(1000, 1010)]
    response = await http.post(
        "/register",
        json=body(
            client_name="n" * 100, redirect_uris=uris, contacts=["ops@example.com"], software_id="s" * 1000
        ),
    )
    assert response.status_code == 201, response.text
    assert response.json()["redirect_uris"] == uris


async def test_registration_waits_while_too_many_clients_were_never_connected(
    app: Litestar,
    http: httpx.AsyncClient,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Review finding 4: registrations from many addresses could fill the disk before the daily purge."""
    monkeypatch.setattr(connected_apps, "UNCONNECTED_CLIENTS_MAX", 2)
    for _ in range(2):
        assert (await http.post("/register", json=body())).status_code == 201
    full = await http.post("/register", json=body())
    assert full.status_code == 503, full.text
    assert full.json()["error"] == "temporarily_unavailable" and int(full.headers["retry-after"]) > 0

    async with unit_of_work(session_maker) as session:
        old = utc_now() - connected_apps.UNCONNECTED_CLIENT_LIFETIME - timedelta(minutes=1)
        await session.execute(update(OAuthClient).values(created_at=old))
    await purge_stale_oauth(app)
    assert (await http.post("/register", json=body())).status_code == 201
