"""Notifications by mail through a real SMTP server (aiosmtpd): owners and admins hear of every new item
by default and members of none; each member chooses per project; every notification mail carries a
one-click unsubscribe link (RFC 8058 headers) that works without a session; the daily digest goes out
once per member and day, whatever the number of processes sending it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import User
from app.db.transactions import unit_of_work
from app.notifications.digest import send_digests
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it


async def add_feedback(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, message: str) -> None:
    async with unit_of_work(session_maker) as session:
        await FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project).create(
            message=message, type="bug"
        )


async def choose(console: Console, tenant: Tenant, feedback: str, contact: str) -> None:
    url = f"/projects/{tenant.project_id}/notifications"
    await console.get(url)
    saved = await console.post(url, {"feedback": feedback, "contact": contact}, follow_redirects=True)
    assert "Saved." in saved.text


async def test_owners_hear_of_every_item_by_default_and_members_choose(
    console: Console,
    owner: User,
    tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await add_feedback(session_maker, tenant, "The search box does nothing")
    (mail,) = await inbox.wait_for(1)
    assert inbox.recipients == [[owner.email]]
    assert mail["Subject"] == "New feedback in Org A docs"
    assert "The search box does nothing" in text_of(mail)
    assert f"/projects/{tenant.project_id}/feedback/" in text_of(mail)

    await console.login("member@org-a.example")
    page = (await console.get(f"/projects/{tenant.project_id}/notifications")).text
    assert '<label for="f-feedback">New feedback</label>' in page
    assert '<option value="off" selected>Off</option>' in page
    assert ">Save notifications</button>" in page
    await choose(console, tenant, "each", "off")
    await add_feedback(session_maker, tenant, "Dark mode please")
    await inbox.wait_for(3)
    assert sorted(r[0] for r in inbox.recipients[1:]) == ["member@org-a.example", owner.email]

    async with unit_of_work(session_maker) as session:
        await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Ada", email="ada@x.example", message="Hi there"
        )
    contact = (await inbox.wait_for(4))[3]
    assert contact["To"] == owner.email and contact["Subject"] == "New contact message in Org A docs"


async def test_one_click_unsubscribe_needs_no_session(
    app: Litestar, owner: User, tenant: Tenant, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with AsyncTestClient(app=app) as client:  # a mail program: no cookies, no CSRF token
        await add_feedback(session_maker, tenant, "First")
        (mail,) = await inbox.wait_for(1)
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        url = mail["List-Unsubscribe"].strip("<>")
        assert url in text_of(mail)
        path = httpx.URL(url).path
        assert "Stop getting mail about new feedback in this project?" in (await client.get(path)).text
        done = await client.post(
            path,
            content=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert done.status_code == 200 and "You will no longer get mail about new feedback" in done.text
        assert (await client.post(path[:-3] + "xyz")).status_code == 404
        await add_feedback(session_maker, tenant, "Second")
        async with unit_of_work(session_maker) as session:
            await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
                name="Bo", email="bo@x.example", message="Still here"
            )
        second = (await inbox.wait_for(2))[1]
        assert second["Subject"] == "New contact message in Org A docs"  # contact mail stays on
        assert len(inbox.messages) == 2


async def test_the_daily_digest_goes_out_once_per_member_and_day(
    console: Console,
    owner: User,
    tenant: Tenant,
    settings: Settings,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    await console.login(owner.email)
    await choose(console, tenant, "daily", "daily")
    for message in ("One", "Two", "Three"):
        await add_feedback(session_maker, tenant, message)
    today = datetime.now(UTC).date()
    sent = await asyncio.gather(*(send_digests(session_maker, settings, today) for _ in range(3)))
    assert sum(sent) == 1
    assert await send_digests(session_maker, settings, today) == 0
    (digest,) = await inbox.wait_for(1)
    assert digest["Subject"] == f"Hearken: what came in on {today.isoformat()}"
    assert "Org A docs: 3 new feedback, 0 contact messages" in text_of(digest)
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


async def test_the_daily_digest_counts_no_spam(
    console: Console,
    owner: User,
    tenant: Tenant,
    settings: Settings,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 10: spam stays out of every count; the digest counted the day's spam feedback and
    contact messages as new."""
    await console.login(owner.email)
    await choose(console, tenant, "daily", "daily")
    await add_feedback(session_maker, tenant, "The export button does nothing")
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.project.org_id, "tests")
        await FeedbackItems(session, scope, tenant.project).create(message="Cheap pills here", spam=True)
        await ContactMessages(session, scope, tenant.project).create(
            name="Bot", email="bot@spam.example", message="Buy followers now", spam=True
        )
    today = datetime.now(UTC).date()
    assert await send_digests(session_maker, settings, today) == 1
    (digest,) = await inbox.wait_for(1)
    assert "Org A docs: 1 new feedback, 0 contact messages" in text_of(digest)


async def test_another_organizations_project_has_no_notifications_page(
    console: Console, owner: User, other_tenant: Tenant
) -> None:
    await console.login(owner.email)
    url = f"/projects/{other_tenant.project_id}/notifications"
    assert (await console.get(url)).status_code == 404
    assert (await console.post(url, {"feedback": "each", "contact": "each"})).status_code == 404
