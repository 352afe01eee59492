"""Tenancy and token scope on every ratings route: another organization's token gets 403 and changes
nothing; a read token may read but not create or archive."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from tests.factories import Tenant

RATING = "{rating}"
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "", {"value": True}),
    ("POST", "/typed", {"rating": {"type": "star", "value": 3}}),
    ("GET", "", None),
    ("GET", "/typed?type=star", None),
    ("GET", f"/{RATING}", None),
    ("DELETE", f"/{RATING}", None),
    ("GET", "/stats", None),
    ("GET", "/stats/typed?type=nps", None),
    ("GET", "/stats/series?interval=week", None),
]
WRITES = [route for route in ROUTES if route[0] != "GET"]


async def a_rating(client: AsyncTestClient, tenant: Tenant) -> str:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/ratings", json={"value": False}, headers=tenant.headers
    )
    return str(response.json()["id"])


@pytest.mark.parametrize(("method", "suffix", "body"), ROUTES)
async def test_other_organization_gets_403(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    method: str,
    suffix: str,
    body: dict[str, Any] | None,
) -> None:
    rating_id = await a_rating(client, tenant)
    for project in (tenant.project_id, tenant.project_key):
        path = f"/api/v1/projects/{project}/ratings{suffix.replace(RATING, rating_id)}"
        response = await client.request(method, path, json=body, headers=other_tenant.headers)
        assert response.status_code == 403
        assert response.json()["error"] == "forbidden"
    own = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ratings/{rating_id}", headers=tenant.headers
    )
    assert own.json()["archived"] is False
    listed = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ratings/typed?type=star", headers=tenant.headers
    )
    assert listed.json()["pagination"]["total"] == 0


@pytest.mark.parametrize(("method", "suffix", "body"), WRITES)
async def test_read_token_may_not_write(
    client: AsyncTestClient, tenant: Tenant, method: str, suffix: str, body: dict[str, Any] | None
) -> None:
    rating_id = await a_rating(client, tenant)
    path = f"/api/v1/projects/{tenant.project_id}/ratings{suffix.replace(RATING, rating_id)}"
    response = await client.request(method, path, json=body, headers=tenant.read_headers)
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings", headers=tenant.read_headers)
    assert [r["id"] for r in listed.json()["ratings"]] == [rating_id]
    assert listed.json()["ratings"][0]["archived"] is False


@pytest.mark.parametrize(("method", "suffix", "body"), ROUTES)
async def test_missing_token_is_401(
    client: AsyncTestClient, tenant: Tenant, method: str, suffix: str, body: dict[str, Any] | None
) -> None:
    path = f"/api/v1/projects/{tenant.project_id}/ratings{suffix.replace(RATING, tenant.project_id)}"
    response = await client.request(method, path, json=body)
    assert response.status_code == 401
