"""CORS per project: allowed, wildcard, apex not matched, disallowed stores nothing, preflight,
no Origin, and the headers on error answers so the widget can read them."""

from __future__ import annotations

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.services.projects import Projects
from tenants.scope import operator_scope
from tests.factories import Tenant, add_project
from tests.integration.public.conftest import ALLOWED, SUCCESS, stored_rows, valid_bodies

PREFLIGHT = {
    "Origin": ALLOWED,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type",
}


@pytest.fixture
async def wildcard_key(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> str:
    project = await add_project(
        session_maker, tenant, name="Wildcard", origins=("https://*.example.com", "http://localhost:3000")
    )
    return str(project.key)


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_allowed_origin_gets_its_origin_back(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    body = valid_bodies(tenant.project_key)[endpoint]
    response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
    assert response.status_code == SUCCESS[endpoint]
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert response.headers["vary"] == "Origin"


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_disallowed_origin_is_403_and_stores_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], endpoint: str
) -> None:
    body = valid_bodies(tenant.project_key)[endpoint]
    response = await client.post(endpoint, json=body, headers={"Origin": "https://attacker.example"})
    assert response.status_code == 403
    assert response.json()["error"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in response.headers
    assert response.headers["vary"] == "Origin"
    assert await stored_rows(session_maker) == 0


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("https://docs.example.com", 204),
        ("https://a.b.example.com", 204),
        ("https://example.com", 403),  # the apex is not a subdomain
        ("http://docs.example.com", 403),  # scheme differs
        ("https://docs.example.com:8443", 403),  # port differs
        ("https://evilexample.com", 403),
        ("http://localhost:3000", 204),
        ("http://localhost:3001", 403),
        ("null", 403),
    ],
)
async def test_wildcard_and_exact_entries(
    client: AsyncTestClient, wildcard_key: str, origin: str, status: int
) -> None:
    body = valid_bodies(wildcard_key)["/api/v1/rating/submit"]
    response = await client.post("/api/v1/rating/submit", json=body, headers={"Origin": origin})
    assert response.status_code == status
    assert ("access-control-allow-origin" in response.headers) == (status == 204)


async def test_origins_compare_normalized(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    project = await add_project(session_maker, tenant, name="Caps", origins=("HTTPS://Shop.Example:443/",))
    assert project.allowed_origins == ["https://shop.example"]
    body = valid_bodies(str(project.key))["/api/v1/rating/submit"]
    for origin in ("https://shop.example", "https://SHOP.example:443"):
        response = await client.post("/api/v1/rating/submit", json=body, headers={"Origin": origin})
        assert response.status_code == 204, origin


async def test_an_origin_of_another_project_is_not_enough(
    client: AsyncTestClient, tenant: Tenant, wildcard_key: str
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    response = await client.post(
        "/api/v1/rating/submit", json=body, headers={"Origin": "https://docs.example.com"}
    )
    assert response.status_code == 403


async def test_requests_without_origin_are_accepted(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    response = await client.post("/api/v1/rating/submit", json=body)
    assert response.status_code == 204
    assert "access-control-allow-origin" not in response.headers
    assert response.headers["vary"] == "Origin"
    assert await stored_rows(session_maker) == 1


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_preflight_for_an_allowed_origin(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    response = await client.options(endpoint, headers=PREFLIGHT)
    assert response.status_code == 204
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert response.headers["access-control-allow-methods"] == "POST, OPTIONS"
    assert response.headers["access-control-allow-headers"] == "Content-Type"
    assert response.headers["access-control-max-age"] == "600"
    assert response.headers["vary"] == "Origin"


async def test_preflight_for_a_wildcard_origin(client: AsyncTestClient, wildcard_key: str) -> None:
    headers = {**PREFLIGHT, "Origin": "https://blog.example.com"}
    response = await client.options("/api/v1/feedback/submit", headers=headers)
    assert response.headers["access-control-allow-origin"] == "https://blog.example.com"
    apex = await client.options(
        "/api/v1/feedback/submit", headers={**PREFLIGHT, "Origin": "https://example.com"}
    )
    assert "access-control-allow-origin" not in apex.headers


@pytest.mark.parametrize("origin", ["https://attacker.example", None])
async def test_preflight_for_other_origins_has_no_cors_headers(
    client: AsyncTestClient, tenant: Tenant, origin: str | None
) -> None:
    headers = {**PREFLIGHT, "Origin": origin} if origin else {"Access-Control-Request-Method": "POST"}
    response = await client.options("/api/v1/rating/submit", headers=headers)
    assert response.status_code == 204
    assert not [name for name in response.headers if name.startswith("access-control-")]


async def test_error_answers_are_readable_by_an_allowed_origin(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    bad = await client.post(
        "/api/v1/rating/submit", json={"project_key": tenant.project_key}, headers=PREFLIGHT
    )
    assert bad.status_code == 400
    assert bad.headers["access-control-allow-origin"] == ALLOWED
    unknown = valid_bodies("0b5e0f3a-58b4-4a57-9a7e-5f0f8c0d1e2f")["/api/v1/rating/submit"]
    missing = await client.post("/api/v1/rating/submit", json=unknown, headers=PREFLIGHT)
    assert missing.status_code == 404
    assert missing.headers["access-control-allow-origin"] == ALLOWED
    stranger = await client.post(
        "/api/v1/rating/submit", json={}, headers={"Origin": "https://attacker.example"}
    )
    assert stranger.status_code == 400
    assert "access-control-allow-origin" not in stranger.headers


async def test_an_origin_removed_is_refused_on_the_next_request(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    assert (await client.post("/api/v1/rating/submit", json=body, headers=PREFLIGHT)).status_code == 204
    assert (
        "access-control-allow-origin" in (await client.options("/api/v1/ratings", headers=PREFLIGHT)).headers
    )
    async with unit_of_work(session_maker) as session:
        projects = Projects(session, operator_scope(tenant.org_id, "tests"))
        await projects.update(await projects.get(tenant.project_id), allowed_origins=["https://new.example"])
    assert (await client.post("/api/v1/rating/submit", json=body, headers=PREFLIGHT)).status_code == 403
    assert (
        "access-control-allow-origin"
        not in (await client.options("/api/v1/ratings", headers=PREFLIGHT)).headers
    )
    moved = {**PREFLIGHT, "Origin": "https://new.example"}
    assert (await client.post("/api/v1/rating/submit", json=body, headers=moved)).status_code == 204


async def test_a_deleted_project_is_404_on_the_next_request(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    assert (await client.post("/api/v1/rating/submit", json=body)).status_code == 204
    async with unit_of_work(session_maker) as session:
        projects = Projects(session, operator_scope(tenant.org_id, "tests"))
        await projects.delete(await projects.get(tenant.project_id))
    assert (await client.post("/api/v1/rating/submit", json=body)).status_code == 404
