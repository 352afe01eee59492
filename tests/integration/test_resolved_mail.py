""" "Email me when this is resolved": the address given with a widget's feedback is kept with the item
and asked once to confirm (a mail with no visitor's words in it, within per-address and per-project
budgets); once confirmed, one mail (with the resolution note and a one-click unsubscribe, RFC 8058) goes
out through a real SMTP server when the item becomes Resolved and never again, the unsubscribe link
withdraws the address, and erasure by email takes the item and the confirmation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, OutboundEmail, ReporterAddress, User
from app.notifications import reporter_confirmation
from tests.console_helpers import Console
from tests.factories import Tenant, add_project
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


def local_path(link: str) -> str:
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


async def confirm(client: AsyncTestClient, inbox: Inbox, address: str) -> None:
    """Follow the confirmation link of the latest mail to `address` and press its button."""
    link = await asyncio.to_thread(inbox.link_to, address, "/notifications/confirm/")
    confirmed = await client.post(local_path(link))  # the page's form: no session, no CSRF token
    assert confirmed.status_code == 200 and "your address is confirmed" in confirmed.text


async def mails_of_kind(session_maker: async_sessionmaker[AsyncSession], kind: str) -> int:
    async with session_maker() as session:
        count = await session.scalar(
            select(func.count()).select_from(OutboundEmail).where(OutboundEmail.kind == kind)
        )
        return int(count or 0)


async def test_only_a_confirmed_address_is_mailed_and_the_confirmation_quotes_no_visitor(
    client: AsyncTestClient,
    tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 6: a submission with notify_email sends only a confirmation mail, without a word
    the visitor wrote; resolving before the address is confirmed (or after the link was merely opened)
    mails nothing; confirming and then resolving mails once, without the visitor's text."""
    item = await submit(
        client, tenant, notify_email=REPORTER, message="URGENT: call +1 555 0100 to keep your account",
        submitted_by="security-team", metadata={"name": "Your bank"},
    )  # fmt: skip
    (asked,) = await inbox.wait_for(1)
    assert inbox.recipients == [[REPORTER]]
    assert asked["Subject"] == "Confirm your address to hear about your feedback"
    words = text_of(asked) + text_of(asked, "html") + inbox.raw[0].decode()
    for visitors in ("URGENT", "555", "security-team", "Your bank", "keep your account"):
        assert visitors not in words
    assert "Org A docs" in text_of(asked)

    await set_status(client, tenant, item["id"], status="Resolved", resolution_note="Fixed in 2.4.1.")
    link = await asyncio.to_thread(inbox.link_to, REPORTER, "/notifications/confirm/")
    page = await client.get(local_path(link))  # what a mail scanner does: it confirms nothing
    assert page.status_code == 200 and '<button type="submit" class="primary">Confirm</button>' in page.text
    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved", resolution_note="Fixed in 2.4.1.")
    assert await mails_of_kind(session_maker, "feedback_resolved") == 0

    await confirm(client, inbox, REPORTER)
    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved", resolution_note="Fixed in 2.4.1.")
    mail = (await inbox.wait_for(2))[1]
    assert inbox.recipients == [[REPORTER], [REPORTER]]
    assert mail["Subject"] == "Resolved: your feedback to Org A docs"
    assert "Fixed in 2.4.1." in text_of(mail) and "URGENT" not in text_of(mail) + text_of(mail, "html")
    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved")
    assert await mails_of_kind(session_maker, "feedback_resolved") == 1


async def test_confirmation_mails_are_budgeted_per_address_and_per_project(
    client: AsyncTestClient,
    tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Review finding 6: one confirmation mail to an address a day across every project, and a
    per-project budget an hour; an address confirmed once counts for the project's later items."""
    monkeypatch.setattr(reporter_confirmation, "PROJECT_CONFIRMATIONS_PER_HOUR", 3)
    other = await add_project(session_maker, tenant, name="Org A app")
    other_key = {"project_key": str(other.key)}
    await submit(client, tenant, notify_email=REPORTER)
    await submit(client, tenant, notify_email=REPORTER.lower(), message="Again")
    stored = await client.post("/api/v1/feedback/submit", json={**other_key, "message": "Elsewhere",
                                                                 "notify_email": REPORTER})  # fmt: skip
    assert stored.status_code == 200
    for n in range(3):
        await submit(client, tenant, notify_email=f"visitor{n}@visitor.example", message=f"Item {n}")
    await inbox.wait_for(3)
    await asyncio.sleep(0.5)  # anything more would have arrived with them
    assert sorted(r for [r] in inbox.recipients) == [REPORTER, "visitor0@visitor.example",
                                                     "visitor1@visitor.example"]  # fmt: skip
    assert await mails_of_kind(session_maker, "confirm_reporter") == 3

    await confirm(client, inbox, REPORTER)
    later = await submit(client, tenant, notify_email=REPORTER, message="A later one")
    await set_status(client, tenant, later["id"], status="Resolved")
    mail = (await inbox.wait_for(4))[3]
    assert mail["Subject"] == "Resolved: your feedback to Org A docs"
    async with session_maker() as session:
        rows = {(r.project_id, r.confirmed_at is not None) for r in await session.scalars(
            select(ReporterAddress).where(ReporterAddress.address == REPORTER.lower()))}  # fmt: skip
    assert rows == {(tenant.project.id, True), (other.id, False)}


async def test_one_mail_with_the_note_when_resolved_and_one_click_unsubscribe(
    client: AsyncTestClient, tenant: Tenant, inbox: Inbox
) -> None:
    item = await submit(client, tenant, notify_email=REPORTER)
    assert item["notify_email"] == REPORTER
    await confirm(client, inbox, REPORTER)
    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved", resolution_note="Fixed in 2.4.1.")

    mail = (await inbox.wait_for(2))[1]
    assert inbox.recipients == [[REPORTER], [REPORTER]]
    assert mail["Subject"] == "Resolved: your feedback to Org A docs"
    text = text_of(mail)
    assert "Fixed in 2.4.1." in text and "Search ignores accents" not in text
    link = mail["List-Unsubscribe"].strip("<>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in text

    await set_status(client, tenant, item["id"], status="Active")
    await set_status(client, tenant, item["id"], status="Resolved")
    second = await submit(client, tenant, notify_email=REPORTER.lower(), message="Dark mode please")
    unsubscribed = await client.post(local_path(link))  # as a mail program does: no session, no CSRF
    assert unsubscribed.status_code == 200
    assert "no longer get mail from this project when your feedback is resolved" in unsubscribed.text
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    assert all("notify_email" not in i for i in listed.json()["feedback"])
    await set_status(client, tenant, second["id"], status="Resolved")

    nobody = await submit(client, tenant, message="No address given")
    await set_status(client, tenant, nobody["id"], status="Resolved")
    late = await submit(client, tenant, notify_email="later@visitor.example", message="One more")
    await confirm(client, inbox, "later@visitor.example")
    await set_status(client, tenant, late["id"], status="Resolved")
    await inbox.wait_for(4)  # the mails queued before it would have arrived first
    assert inbox.recipients == [[REPORTER], [REPORTER], ["later@visitor.example"], ["later@visitor.example"]]


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
        assert await session.scalar(select(func.count()).select_from(ReporterAddress)) == 0


async def test_resolving_in_the_console_mails_the_reporter_and_the_item_says_so(
    client: AsyncTestClient, console: Console, owner: User, tenant: Tenant, inbox: Inbox
) -> None:
    item = await submit(client, tenant, notify_email=REPORTER)
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/feedback/{item['id']}"
    assert "not confirmed yet: no mail until the reporter confirms" in (await console.get(url)).text
    await confirm(client, inbox, REPORTER)
    page = (await console.get(url)).text
    assert f"{REPORTER} <span" in page and "confirmed: one mail when Resolved" in page
    saved = await console.htmx_post(url, {"status": "Resolved", "resolution_note": "Accents <now> match"})
    assert "Saved." in saved.text and '<span class="badge ok">mailed</span>' in saved.text
    mails = await inbox.wait_for(3)  # the owner hears of the new item too
    (mail,) = [m for m in mails if m["To"] == REPORTER and m["Subject"].startswith("Resolved")]
    assert "Accents <now> match" in text_of(mail) and "Accents &lt;now&gt; match" in text_of(mail, "html")
