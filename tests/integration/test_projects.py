"""GET /projects and /projects/{id}: the organization sees its own projects and nothing else."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.factories import Tenant, add_project


async def test_lists_only_own_projects(client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant) -> None:
    response = await client.get("/api/v1/projects", headers=tenant.headers)
    assert response.status_code == 200
    projects = response.json()["projects"]
    assert [p["id"] for p in projects] == [tenant.project_id]
    project = projects[0]
    assert project["key"] == tenant.project_key
    assert project["org_id"] == str(tenant.org_id)
    assert project["allowed_origins"] == ["https://site.example"]
    assert project["feedback_count"] == 0
    assert project["name"] == "Org A docs"
    assert project["description"] == ""


async def test_project_by_id_or_key(client: AsyncTestClient, tenant: Tenant) -> None:
    by_id = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.read_headers)
    by_key = await client.get(f"/api/v1/projects/{tenant.project_key}", headers=tenant.read_headers)
    assert by_id.status_code == by_key.status_code == 200
    assert by_id.json() == by_key.json()


async def test_other_organizations_project_is_403(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    response = await client.get(f"/api/v1/projects/{other_tenant.project_id}", headers=tenant.headers)
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


async def test_unknown_project_is_404_and_bad_uuid_400(client: AsyncTestClient, tenant: Tenant) -> None:
    missing = await client.get(
        "/api/v1/projects/0190b2b4-0000-7000-8000-000000000000", headers=tenant.headers
    )
    assert missing.status_code == 404
    assert missing.json() == {"error": "not_found", "details": "no project with this id or key"}
    bad = await client.get("/api/v1/projects/not-a-uuid", headers=tenant.headers)
    assert bad.status_code == 400
    assert "project_id" in bad.json()["details"]


async def test_projects_are_listed_oldest_first(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    second = await add_project(session_maker, tenant, name="Second")
    response = await client.get("/api/v1/projects", headers=tenant.headers)
    assert [p["id"] for p in response.json()["projects"]] == [tenant.project_id, str(second.id)]
