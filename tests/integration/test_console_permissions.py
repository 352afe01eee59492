"""Every role rule is enforced on the server, and another organization's objects do not exist here."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Project, User
from app.db.transactions import unit_of_work
from tenants.access_tokens import AccessTokens
from tenants.members import Members
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant


async def project_names(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> list[str]:
    async with unit_of_work(session_maker) as session:
        return list(await session.scalars(select(Project.name).where(Project.org_id == tenant.org_id)))


async def test_a_member_reads_everything_but_cannot_do_an_admins_work(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "m@org-a.example", "member")
    await console.login("m@org-a.example")
    project = f"/projects/{tenant.project_id}"
    for page in ("/projects", project, f"{project}/install", "/members", "/settings/tokens"):
        assert (await console.get(page)).status_code == 200, page
    listing = (await console.get("/projects")).text
    assert "New project" not in listing
    assert "Add origin" not in (await console.get(project)).text

    attempts = [
        ("/projects", {"name": "Sneaky"}),
        (project, {"name": "Renamed", "description": ""}),
        (f"{project}/delete", {}),
        (f"{project}/origins", {"origin": "https://evil.example"}),
        (f"{project}/origins/remove", {"origin": "https://site.example"}),
        ("/settings/tokens", {"label": "mine", "scope": "write"}),
        ("/members/invitations", {"email": "friend@x.example", "role": "owner"}),
    ]
    for url, data in attempts:
        response = await console.post(url, data)
        assert response.status_code == 403, url
        assert "only an owner" in response.text
    assert (await console.get("/projects/new")).status_code == 403
    assert await project_names(session_maker, tenant) == ["Org A docs"]
    async with unit_of_work(session_maker) as session:
        assert [t.label for t in await AccessTokens(session, operator_scope(tenant.org_id)).list()] == [
            "read",
            "write",
        ]
        assert len(await Members(session, operator_scope(tenant.org_id)).list()) == 1


async def test_an_admin_manages_projects_and_tokens_but_not_members(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "a@org-a.example", "admin")
    await console.login("a@org-a.example")
    await console.get("/projects")
    assert (await console.post("/projects", {"name": "Blog"}, follow_redirects=False)).status_code == 303
    assert (await console.post("/settings/tokens", {"label": "ci", "scope": "read"})).status_code == 200
    invite = await console.post("/members/invitations", {"email": "x@org-a.example", "role": "admin"})
    assert invite.status_code == 403
    assert sorted(await project_names(session_maker, tenant)) == ["Blog", "Org A docs"]


@pytest.mark.parametrize(
    "method,suffix",
    [
        ("get", ""),
        ("get", "/install"),
        ("get", "/delete"),
        ("post", ""),
        ("post", "/delete"),
        ("post", "/origins"),
        ("post", "/origins/remove"),
    ],
)
async def test_another_organizations_project_is_not_found(
    console: Console,
    owner: User,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    method: str,
    suffix: str,
) -> None:
    await console.login(owner.email)
    await console.get("/projects")
    url = f"/projects/{other_tenant.project_id}{suffix}"
    data = {"name": "Taken", "description": "", "origin": "https://site.example"}
    response = await (console.get(url) if method == "get" else console.post(url, data))
    assert response.status_code == 404
    assert "Org B" not in response.text
    assert await project_names(session_maker, other_tenant) == ["Org B docs"]
    by_key = await console.get(f"/projects/{other_tenant.project_key}")
    assert by_key.status_code == 404


async def test_another_organizations_tokens_and_members_are_not_found(
    console: Console, owner: User, other_tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    other_owner = await add_user(session_maker, other_tenant.org_id, "b@org-b.example", "owner")
    async with unit_of_work(session_maker) as session:
        tokens = await AccessTokens(session, operator_scope(other_tenant.org_id)).list()
        membership = (await Members(session, operator_scope(other_tenant.org_id)).list())[0]
    await console.login(owner.email)
    await console.get("/projects")
    for token in tokens:
        assert (await console.post(f"/settings/tokens/{token.id}/revoke")).status_code == 404
        assert (await console.post(f"/settings/tokens/{token.id}/delete")).status_code == 404
    assert (
        await console.post(f"/members/{membership.membership_id}/role", {"role": "member"})
    ).status_code == 404
    assert (await console.post(f"/members/{membership.membership_id}/remove")).status_code == 404
    async with unit_of_work(session_maker) as session:
        assert all(
            t.is_active for t in await AccessTokens(session, operator_scope(other_tenant.org_id)).list()
        )
        assert [m.email for m in await Members(session, operator_scope(other_tenant.org_id)).list()] == [
            other_owner.email
        ]
