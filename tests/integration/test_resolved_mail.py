""" "Email me when this is resolved": the address given with a widget's feedback is kept with the item,
one mail (with the resolution note and a one-click unsubscribe, RFC 8058) goes out through a real SMTP
server when the item becomes Resolved and never again, the unsubscribe link withdraws the address, and
erasure by email takes the item."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, User
from tests.console_helpers import Console
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

REPORTER = "Reporter@Visitor.example"


async def submit(client: AsyncTestClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"project_key": tenant.project_key, "message": "Search ignores accents", "type": "Bug", **fields}
    stored = await client.post("/api/v1/feedback/submit", json=body)
    assert stored.status_code == 200, stored.text
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    item: dict[str, Any] = listed.json()["feedback"][0]
    return item


async def set_status(client: AsyncTestClient, tenant: Tenant, item_id: str, **changes: str) -> None:
    url = f"/api/v1/projects/{tenant.project_id}/feedback/{item_id}"
    assert (await client.patch(url, json=changes, headers=tenant.headers)).status_code == 200


async def test_one_mail_with_the_note_when_resolved_and_one_click_unsubscribe(
    client: AsyncTestClient, tenant: Tenant, inbox: Inbox
) -> None:
    item = await submit(client, tenant, notify_email=REPORTER)
    assert item["notify_email"] == REPORTER
    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved", resolution_note="Fixed in 2.4.1.")

    (mail,) = await inbox.wait_for(1)
    assert inbox.recipients == [[REPORTER]]
    assert mail["Subject"] == "Resolved: your feedback to Org A docs"
    text = text_of(mail)
    assert "Fixed in 2.4.1." in text and "Search ignores accents" in text
    link = mail["List-Unsubscribe"].strip("<>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in text

    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved")
    second = await submit(client, tenant, notify_email=REPORTER.lower(), message="Dark mode please")
    path = link.split("://", 1)[1].split("/", 1)[1]
    unsubscribed = await client.post(f"/{path}")  # as a mail program does: no session, no CSRF token
    assert unsubscribed.status_code == 200
    assert "no longer get mail from this project when your feedback is resolved" in unsubscribed.text
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    assert all("notify_email" not in i for i in listed.json()["feedback"])
    await set_status(client, tenant, second["id"], status="Resolved")

    nobody = await submit(client, tenant, message="No address given")
    await set_status(client, tenant, nobody["id"], status="Resolved")
    late = await submit(client, tenant, notify_email="later@visitor.example", message="One more")
    await set_status(client, tenant, late["id"], status="Resolved")
    await inbox.wait_for(2)  # the mails queued before it would have arrived first
    assert inbox.recipients == [[REPORTER], ["later@visitor.example"]]


async def test_bad_addresses_are_refused_and_erasure_by_email_covers_the_item(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = {"project_key": tenant.project_key, "message": "Broken link", "notify_email": "nope"}
    refused = await client.post("/api/v1/feedback/submit", json=body)
    assert refused.status_code == 400 and "notify_email" in refused.json()["details"]
    await submit(client, tenant, notify_email=REPORTER)
    erased = await client.post(
        "/api/v1/privacy/erase", json={"email": REPORTER.upper()}, headers=tenant.headers
    )
    assert erased.json()["feedback"] == 1
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(FeedbackItem)) == 0


async def test_resolving_in_the_console_mails_the_reporter_and_the_item_says_so(
    client: AsyncTestClient, console: Console, owner: User, tenant: Tenant, inbox: Inbox
) -> None:
    item = await submit(client, tenant, notify_email=REPORTER)
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/feedback/{item['id']}"
    page = (await console.get(url)).text
    assert f"{REPORTER} <span" in page and "one mail when Resolved" in page
    saved = await console.htmx_post(url, {"status": "Resolved", "resolution_note": "Accents <now> match"})
    assert "Saved." in saved.text and '<span class="badge ok">mailed</span>' in saved.text
    mails = await inbox.wait_for(2)  # the owner hears of the new item too
    (mail,) = [m for m in mails if m["To"] == REPORTER]
    assert "Accents <now> match" in text_of(mail) and "Accents &lt;now&gt; match" in text_of(mail, "html")
