"""The feedback inbox and contact messages in the console, over the services the API uses."""

from __future__ import annotations

import re

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant

HOSTILE = "<img src=x onerror=alert(1)>"


async def seed(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> list[FeedbackItem]:
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        return [
            await items.create(
                message="The search box is broken", type="Bug", source="Widget", path="/search"
            ),
            await items.create(message="Love the new docs", type="Praise", source="Widget", path="/"),
            await items.create(message=HOSTILE, type="Other", source="Manual"),
        ]


async def member_console(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> Console:
    await add_user(session_maker, tenant.org_id, "triage@org-a.example", "member")
    await console.login("triage@org-a.example")
    await console.get("/projects")
    return console


async def test_inbox_filters_and_escapes(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await seed(session_maker, tenant)
    await member_console(console, tenant, session_maker)
    url = f"/projects/{tenant.project_id}/feedback"
    page = (await console.get(url)).text
    assert "3 items" in page
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    bugs = await console.get(url, params={"type": "Bug"})
    assert "1 item" in bugs.text and "The search box is broken" in bugs.text and "Love" not in bugs.text
    search = await console.get(
        url, params={"search": "LOVE", "source": "Widget"}, headers={"HX-Request": "true"}
    )
    assert search.text.startswith('<div id="feedback-list">') and "Love the new docs" in search.text
    assert "1 item" in search.text
    by_path = await console.get(url, params={"path": "/search"})
    assert "1 item" in by_path.text
    bad = await console.get(url, params={"status": "Done"})
    assert bad.status_code == 400 and "status: must be one of New" in bad.text


async def test_triage_from_the_row_and_the_detail_with_history(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], client: AsyncTestClient
) -> None:
    item = (await seed(session_maker, tenant))[0]
    await member_console(console, tenant, session_maker)
    base = f"/projects/{tenant.project_id}/feedback/{item.id}"
    row = await console.htmx_post(base + "/status", {"status": "Active"})
    assert row.status_code == 200 and row.text.startswith(f'<tr id="row-{item.id}">')
    assert '<option value="Active" selected>' in row.text
    saved = await console.htmx_post(
        base, {"status": "Resolved", "type": "Bug", "resolution_note": "Fixed in 2.1"}
    )
    assert "Saved." in saved.text
    history = re.findall(
        r"changed <strong>([^<]+)</strong>\s+from <q>([^<]*)</q> to <q>([^<]*)</q>", saved.text
    )
    assert history == [
        ("status", "New", "Active"),
        ("status", "Active", "Resolved"),
        ("resolution note", "—", "Fixed in 2.1"),
    ]
    assert "triage@org-a.example changed" in saved.text
    bad = await console.htmx_post(base, {"status": "Done"})
    assert bad.status_code == 400 and "Invalid enum value" in bad.text

    api = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback/{item.id}", headers=tenant.headers)
    assert api.json()["status"] == "Resolved" and api.json()["resolution_note"] == "Fixed in 2.1"

    archived = await console.htmx_post(base + "/archive")
    assert "Restore" in archived.text
    inbox = (await console.get(f"/projects/{tenant.project_id}/feedback")).text
    assert "The search box is broken" not in inbox
    assert (
        "The search box is broken"
        in (await console.get(f"/projects/{tenant.project_id}/feedback?archived=true")).text
    )
    restored = await console.htmx_post(base + "/restore")
    assert "Archive" in restored.text


async def test_bulk_status_change_keeps_the_filters(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    items = await seed(session_maker, tenant)
    await member_console(console, tenant, session_maker)
    url = f"/projects/{tenant.project_id}/feedback/bulk?source=Widget"
    response = await console.client.post(
        url,
        data={"status": "Hold", "ids": [str(items[0].id), str(items[1].id)]},
        headers={"HX-Request": "true", "X-CSRFToken": console.csrf},
    )
    assert response.status_code == 200
    assert "2 changed." in response.text and "2 items" in response.text
    assert response.text.count('<option value="Hold" selected>') == 2
    held = (await console.get(f"/projects/{tenant.project_id}/feedback?status=Hold")).text
    assert "2 items" in held


async def test_another_projects_feedback_is_not_found(
    console: Console, tenant: Tenant, other_tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    theirs = (await seed(session_maker, other_tenant))[0]
    await member_console(console, tenant, session_maker)
    assert (await console.get(f"/projects/{other_tenant.project_id}/feedback")).status_code == 404
    assert (await console.get(f"/projects/{tenant.project_id}/feedback/{theirs.id}")).status_code == 404
    assert (
        await console.post(f"/projects/{tenant.project_id}/feedback/{theirs.id}/archive")
    ).status_code == 404
    bulk = await console.post(
        f"/projects/{tenant.project_id}/feedback/bulk",
        {"status": "Closed", "ids": str(theirs.id)},
        follow_redirects=False,
    )
    assert bulk.status_code == 303
    async with unit_of_work(session_maker) as session:
        assert (await session.get(FeedbackItem, theirs.id)).status == "New"  # type: ignore[union-attr]


async def test_contact_messages_list_detail_archive(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        messages = ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project)
        record = await messages.create(
            name="Ann", email="ann@x.example", message="Call me " + HOSTILE, subject="Hi"
        )
        await messages.create(name="Bob", email="bob@x.example", message="Pricing question")
    await member_console(console, tenant, session_maker)
    url = f"/projects/{tenant.project_id}/contact"
    listing = (await console.get(url)).text
    assert "2 messages" in listing and HOSTILE not in listing
    assert "1 message" in (await console.get(url, params={"search": "pricing"})).text
    detail = await console.get(f"{url}/{record.id}")
    assert "ann@x.example" in detail.text and "&lt;img src=x" in detail.text and HOSTILE not in detail.text
    archived = await console.post(f"{url}/{record.id}/archive")
    assert "Archived." in archived.text
    assert "1 message" in (await console.get(url)).text
    assert "1 message" in (await console.get(url, params={"archived": "true"})).text


async def test_a_stored_email_with_query_characters_cannot_prefill_a_mail(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Addresses stored before the strict rule keep rendering, but the mailto link names one recipient."""
    hostile = "help@victim.example?bcc=attacker%40evil.test&body=Hi"
    async with unit_of_work(session_maker) as session:
        record = await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Eve", email=hostile, message="Hello there"
        )
    await member_console(console, tenant, session_maker)
    detail = (await console.get(f"/projects/{tenant.project_id}/contact/{record.id}")).text
    links = re.findall(r'href="(mailto:[^"]*)"', detail)
    assert links == ["mailto:help@victim.example%3Fbcc%3Dattacker%2540evil.test%26body%3DHi"]
