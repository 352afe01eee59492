"""Feedback items and contact messages deleted for good (DELETE ?purge=true, the console's "Delete
permanently"), besides archiving: gone from every read, counts exact."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.counter_recount import assert_counters_match_rows
from tests.factories import Tenant


def url(tenant: Tenant, suffix: str) -> str:
    return f"/api/v1/projects/{tenant.project_id}{suffix}"


async def total(client: AsyncTestClient, tenant: Tenant, query: str) -> int:
    response = await client.get(url(tenant, f"/feedback{query}"), headers=tenant.headers)
    return int(response.json()["pagination"]["total"])


async def test_feedback_purge_deletes_for_good_and_counts_stay_exact(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    ids = []
    for message, kind in (("one bug", "Bug"), ("two bug", "Bug"), ("praise", "Praise")):
        created = await client.post(
            url(tenant, "/feedback"), json={"message": message, "type": kind}, headers=tenant.headers
        )
        ids.append(created.json()["id"])
    patched = await client.patch(
        url(tenant, f"/feedback/{ids[0]}"), json={"status": "Closed"}, headers=tenant.headers
    )
    assert patched.status_code == 200
    await client.delete(url(tenant, f"/feedback/{ids[1]}"), headers=tenant.headers)  # archived first
    for fid in ids[:2]:
        response = await client.delete(url(tenant, f"/feedback/{fid}?purge=true"), headers=tenant.headers)
        assert response.status_code == 204
        assert (await client.get(url(tenant, f"/feedback/{fid}"), headers=tenant.headers)).status_code == 404
        assert (
            await client.get(url(tenant, f"/feedback/{fid}/history"), headers=tenant.headers)
        ).status_code == 404
    again = await client.delete(url(tenant, f"/feedback/{ids[0]}?purge=true"), headers=tenant.headers)
    assert again.status_code == 404
    assert (await total(client, tenant, "?type=Bug"), await total(client, tenant, "?archived=true")) == (0, 0)
    assert await total(client, tenant, "") == 1
    projects = (await client.get("/api/v1/projects", headers=tenant.headers)).json()["projects"]
    assert projects[0]["feedback_count"] == 1
    async with unit_of_work(session_maker) as session:
        await assert_counters_match_rows(session)
    refused = await client.delete(url(tenant, f"/feedback/{ids[2]}?purge=true"), headers=tenant.read_headers)
    assert refused.status_code == 403
    bad = await client.delete(url(tenant, f"/feedback/{ids[2]}?purge=maybe"), headers=tenant.headers)
    assert bad.status_code == 400 and "purge" in bad.json()["details"]


async def test_contact_message_purge(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        record = await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Ada", email="a@example.org", message="Hello"
        )
    archived = await client.delete(url(tenant, f"/contact-messages/{record.id}"), headers=tenant.headers)
    assert archived.status_code == 204
    response = await client.delete(
        url(tenant, f"/contact-messages/{record.id}?purge=true"), headers=tenant.headers
    )
    assert response.status_code == 204
    assert (
        await client.get(url(tenant, f"/contact-messages/{record.id}"), headers=tenant.headers)
    ).status_code == 404
    listed = await client.get(url(tenant, "/contact-messages?archived=true"), headers=tenant.headers)
    assert listed.json()["contact_messages"] == []


async def test_console_delete_permanently_is_for_admins(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        item = await FeedbackItems(
            session, operator_scope(tenant.project.org_id, "tests"), tenant.project
        ).create(message="Remove me")
        record = await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Bo", email="b@example.org", message="Hi there"
        )
    feedback_page = f"/projects/{tenant.project_id}/feedback/{item.id}"
    contact_page = f"/projects/{tenant.project_id}/contact/{record.id}"
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    assert "Delete permanently" not in (await console.get(feedback_page)).text
    assert (await console.post(f"{feedback_page}/delete")).status_code == 403
    console.client.cookies.clear()
    await add_user(session_maker, tenant.org_id, "admin@org-a.example", "admin")
    await console.login("admin@org-a.example")
    for page, listing in ((feedback_page, "feedback"), (contact_page, "contact")):
        assert 'href="' + page + '/delete">Delete permanently</a>' in (await console.get(page)).text
        confirm = await console.get(f"{page}/delete")
        assert confirm.status_code == 200 and "cannot be undone" in confirm.text
        done = await console.post(f"{page}/delete", follow_redirects=False)
        assert (done.status_code, done.headers["location"]) == (
            303,
            f"/projects/{tenant.project_id}/{listing}",
        )
        assert (await console.get(page)).status_code == 404
    async with unit_of_work(session_maker) as session:
        await assert_counters_match_rows(session)
