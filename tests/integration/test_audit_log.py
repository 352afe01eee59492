"""The audit log: changes to tokens, members, invitations, projects, origins, webhooks and integrations,
by whoever made them (a token, a member, the command line), newest first, paginated, one organization's
own, never a secret, and written in the transaction of the change it records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import AccessToken, AuditEntry, Membership, Project
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant

STRIPE_SECRET = "whsec_auditlogneverholdsthis"


async def entries(client: AsyncTestClient, tenant: Tenant, query: str = "?limit=100") -> list[dict[str, Any]]:
    response = await client.get(f"/api/v1/audit-log{query}", headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    return list(response.json()["entries"])


async def test_api_and_console_changes_are_recorded_newest_first(
    client: AsyncTestClient,
    console: Console,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    before = {e["id"] for e in await entries(client, tenant)}
    prefix = tenant.token[:12]
    project = f"/api/v1/projects/{tenant.project_id}"
    created = await client.post(
        "/api/v1/webhooks", json={"url": "https://hooks.example/a"}, headers=tenant.headers
    )
    webhook_id = created.json()["id"]
    await client.patch(f"/api/v1/webhooks/{webhook_id}", json={"enabled": False}, headers=tenant.headers)
    await client.delete(f"/api/v1/webhooks/{webhook_id}", headers=tenant.headers)
    stripe = await client.put(
        f"{project}/integrations/stripe", json={"signing_secret": STRIPE_SECRET}, headers=tenant.headers
    )
    assert stripe.status_code in (200, 201), stripe.text

    await add_user(session_maker, tenant.org_id, "admin@org-a.example", "owner")
    await console.login("admin@org-a.example")
    await console.post(f"/projects/{tenant.project_id}/origins", {"origin": "https://new.example"})
    await console.post(f"/projects/{tenant.project_id}/origins/remove", {"origin": "https://site.example"})
    await console.post("/settings/tokens", {"label": "ci", "scope": "read"})
    await console.post("/members/invitations", {"email": "new@org-a.example", "role": "member"})

    log = [e for e in await entries(client, tenant) if e["id"] not in before]
    actions = [(e["actor"], e["action"]) for e in reversed(log)]
    assert actions == [
        (f"token {prefix}", "webhook.created"),
        (f"token {prefix}", "webhook.updated"),
        (f"token {prefix}", "webhook.deleted"),
        (f"token {prefix}", "integration.created"),
        ("system", "member.created"),  # add_user, outside any request
        ("admin@org-a.example", "origin.added"),
        ("admin@org-a.example", "origin.removed"),
        ("admin@org-a.example", "token.created"),
        ("admin@org-a.example", "invitation.created"),
    ]
    by_action = {e["action"]: e for e in log}
    assert by_action["webhook.updated"]["details"] == {"enabled": {"from": True, "to": False}}
    assert by_action["webhook.updated"]["target_id"] == webhook_id
    assert by_action["origin.added"]["details"]["origin"] == "https://new.example"
    assert by_action["origin.removed"]["details"]["origin"] == "https://site.example"
    assert by_action["token.created"]["details"]["scope"] == "read"
    assert by_action["integration.created"]["details"]["kind"] == "stripe"
    assert [e["created_at"] for e in log] == sorted((e["created_at"] for e in log), reverse=True)
    text = json.dumps(log)
    assert STRIPE_SECRET not in text and "whsec_" not in text and "token_digest" not in text
    assert not [e for e in await entries(client, other_tenant) if e["target_id"] == webhook_id]

    first, second = (
        await entries(client, tenant, "?limit=2&page=1"),
        await entries(client, tenant, "?limit=2&page=2"),
    )
    assert [e["id"] for e in first + second] == [e["id"] for e in (await entries(client, tenant))[:4]]
    bad = await client.get("/api/v1/audit-log?limit=0", headers=tenant.headers)
    assert bad.status_code == 400


async def test_member_role_changes_and_revocations(
    client: AsyncTestClient, console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "owner@org-a.example", "owner")
    helper_user = await add_user(session_maker, tenant.org_id, "helper@org-a.example", "member")
    async with session_maker() as session:
        helper = await session.scalar(select(Membership.id).where(Membership.user_id == helper_user.id))
    await console.login("owner@org-a.example")
    await console.post(f"/members/{helper}/role", {"role": "admin"})
    async with session_maker() as session:
        token_id = await session.scalar(
            select(AccessToken.id).where(AccessToken.org_id == tenant.org_id, AccessToken.label == "write")
        )
    await console.post(f"/settings/tokens/{token_id}/revoke")
    log = await entries(client, tenant)
    revoked = next(e for e in log if e["action"] == "token.revoked")
    assert (revoked["actor"], revoked["target_id"]) == ("owner@org-a.example", str(token_id))
    change = next(e for e in log if e["action"] == "member.role_changed")
    assert (change["actor"], change["details"]) == (
        "owner@org-a.example",
        {"role": {"from": "member", "to": "admin"}},
    )
    added = [e for e in log if e["action"] == "member.created"]
    assert {e["details"]["email"] for e in added} >= {"owner@org-a.example", "helper@org-a.example"}
    assert {e["actor"] for e in added} == {"system"}


async def test_a_rolled_back_change_leaves_no_entry(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with session_maker() as session:
        before = await session.scalar(select(func.count()).select_from(AuditEntry))
        session.add(Project(org_id=tenant.org_id, name="Never", allowed_origins=[]))
        await session.flush()
        assert await session.scalar(select(func.count()).select_from(AuditEntry)) == (before or 0) + 1
        await session.rollback()
        assert await session.scalar(select(func.count()).select_from(AuditEntry)) == before


@pytest.mark.parametrize("role, status", [("admin", 200), ("member", 403)])
async def test_console_page_is_for_admins(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], role: str, status: int
) -> None:
    await add_user(session_maker, tenant.org_id, f"{role}@org-a.example", role)
    await console.login(f"{role}@org-a.example")
    home = (await console.get("/projects")).text
    assert ('href="/audit-log"' in home) is (role == "admin")
    page = await console.get("/audit-log")
    assert page.status_code == status
    if status == 200:
        assert "<h1>Audit log</h1>" in page.text and "project.created" in page.text


async def test_every_entry_names_its_target_and_purges_are_recorded(
    client: AsyncTestClient,
    console: Console,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    before = {e["id"] for e in await entries(client, tenant)}
    webhook_id = (
        await client.post("/api/v1/webhooks", json={"url": "https://hooks.example/t"}, headers=tenant.headers)
    ).json()["id"]
    user = await add_user(session_maker, tenant.org_id, "owner@org-a.example", "owner")
    await console.login("owner@org-a.example")
    await console.post("/settings/tokens", {"label": "named", "scope": "read"})
    await console.post("/projects", {"name": "Named", "origins": ""})
    project = f"/api/v1/projects/{tenant.project_id}"
    item_id = (
        await client.post(f"{project}/feedback", json={"message": "secret words"}, headers=tenant.headers)
    ).json()["id"]
    assert (
        await client.delete(f"{project}/feedback/{item_id}?purge=true", headers=tenant.headers)
    ).status_code == 204
    async with unit_of_work(session_maker) as session:
        message = await ContactMessages(session, operator_scope(tenant.org_id), tenant.project).create(
            name="Ada", email="ada@example.org", message="private"
        )
    purged = await client.delete(
        f"{project}/contact-messages/{message.id}?purge=true", headers=tenant.headers
    )
    assert purged.status_code == 204
    async with session_maker() as session:
        token_id = await session.scalar(select(AccessToken.id).where(AccessToken.label == "named"))
        project_id = await session.scalar(select(Project.id).where(Project.name == "Named"))
        member_id = await session.scalar(select(Membership.id).where(Membership.user_id == user.id))

    log = [e for e in await entries(client, tenant) if e["id"] not in before]
    targets = {e["action"]: e["target_id"] for e in log}
    assert targets == {
        "webhook.created": webhook_id,
        "member.created": str(member_id),
        "token.created": str(token_id),
        "project.created": str(project_id),
        "feedback.purged": item_id,
        "contact_message.purged": str(message.id),
    }
    by_action = {e["action"]: e for e in log}
    assert by_action["feedback.purged"]["actor"] == f"token {tenant.token[:12]}"
    assert by_action["feedback.purged"]["details"] == {"project_id": str(tenant.project_id)}
    assert "secret words" not in json.dumps(log) and "ada@example.org" not in json.dumps(log)
