"""Replies to contact messages, from the API and the console: mailed through a real SMTP server with
Reply-To the member (a token's reply to the organization's first owner) and the original quoted, kept
in the thread, the message marked Answered, the webhook event sent and the audit log told; erasure by
the sender's address takes the thread with the message."""

from __future__ import annotations

import json

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, ContactReply, User
from app.db.transactions import unit_of_work
from app.webhooks.slack import slack_text
from tests.console_helpers import Console, add_user, errors_in
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of
from tests.receivers import Receiver, Script, receiver

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it


async def quiet_message(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> ContactMessage:
    """A stored message, without the notification mail a widget's message sets off."""
    async with unit_of_work(session_maker) as session:
        record = ContactMessage(
            project_id=tenant.project.id,
            name="Ada",
            email="ada@visitor.example",
            subject="Invoice",
            message="Where is my invoice?\nI paid on Monday.",
        )
        session.add(record)
    return record


def replies_url(tenant: Tenant, record: ContactMessage) -> str:
    return f"/api/v1/projects/{tenant.project_id}/contact-messages/{record.id}/replies"


@pytest.fixture
def hook() -> object:
    with receiver(Script(statuses=[204])) as running:
        yield running


async def test_a_token_reply_is_mailed_threaded_answered_announced_and_audited(
    client: AsyncTestClient,
    tenant: Tenant,
    owner: User,
    inbox: Inbox,
    hook: Receiver,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    record = await quiet_message(session_maker, tenant)
    subscribed = await client.post(
        "/api/v1/webhooks",
        json={"url": hook.url, "events": ["contact_message.replied"]},
        headers=tenant.headers,
    )
    assert subscribed.status_code == 201, subscribed.text

    sent = await client.post(
        replies_url(tenant, record), json={"message": "It is attached.\nThanks!"}, headers=tenant.headers
    )
    assert sent.status_code == 201, sent.text
    reply = sent.json()
    assert reply["message"] == "It is attached.\nThanks!"
    assert reply["reply_to"] == owner.email and reply["author"].startswith("token ")

    (mail,) = await inbox.wait_for(1)
    assert inbox.recipients == [["ada@visitor.example"]]
    assert mail["Subject"] == "Re: Invoice"
    assert mail["Reply-To"] == owner.email
    assert mail["From"].endswith(">") or "@" in mail["From"]
    text = text_of(mail)
    assert text.index("It is attached.\nThanks!") < text.index("> Where is my invoice?\n> I paid on Monday.")
    assert "Ada wrote to Org A docs" in text
    assert "&lt;" not in text and "It is attached." in text_of(mail, "html")

    read = await client.get(
        f"/api/v1/projects/{tenant.project_id}/contact-messages/{record.id}", headers=tenant.read_headers
    )
    assert read.json()["status"] == "Answered"
    thread = await client.get(replies_url(tenant, record), headers=tenant.read_headers)
    assert thread.status_code == 200 and thread.json() == {"replies": [reply]}

    (delivery,) = await hook.wait_for(1)
    event = json.loads(delivery.body)
    assert event["type"] == "contact_message.replied"
    assert event["data"]["id"] == str(record.id) and event["data"]["status"] == "Answered"
    assert event["reply"]["message"] == "It is attached.\nThanks!"

    audit = await client.get("/api/v1/audit-log", headers=tenant.read_headers)
    (entry,) = [e for e in audit.json()["entries"] if e["action"] == "contact_message.replied"]
    assert entry["target_id"] == str(record.id)
    assert "It is attached" not in json.dumps(entry)


async def test_a_member_replies_from_the_console_and_answers_go_to_them(
    console: Console, tenant: Tenant, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "grace@org-a.example", "member")
    record = await quiet_message(session_maker, tenant)
    await console.login("grace@org-a.example")
    page_url = f"/projects/{tenant.project_id}/contact/{record.id}"
    page = (await console.get(page_url)).text
    assert '<label for="reply-message">Reply</label>' in page and ">Send reply</button>" in page
    assert "No replies yet." in page and ">Open</span>" in page

    blank = await console.post(f"{page_url}/replies", {"message": "   "})
    assert blank.status_code == 400 and errors_in(blank.text) == ["Must not be blank"]

    sent = await console.post(
        f"{page_url}/replies", {"message": "Sent again <b>today</b>"}, follow_redirects=True
    )
    assert sent.status_code == 200
    assert "Reply sent to ada@visitor.example." in sent.text
    assert "Sent again &lt;b&gt;today&lt;/b&gt;" in sent.text and ">Answered</span>" in sent.text
    (mail,) = await inbox.wait_for(1)
    assert mail["Reply-To"] == "grace@org-a.example"
    assert "Sent again <b>today</b>" in text_of(mail)
    listing = (await console.get(f"/projects/{tenant.project_id}/contact")).text
    assert '<span class="badge ok">Answered</span>' in listing


async def test_bad_replies_are_refused_and_other_organizations_see_nothing(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    record = await quiet_message(session_maker, tenant)
    url = replies_url(tenant, record)
    for body, field in (({}, "message"), ({"message": ""}, "message"), ({"message": "x", "cc": "y"}, "cc")):
        refused = await client.post(url, json=body, headers=tenant.headers)
        assert refused.status_code == 400, body
        assert refused.json()["error"] == "invalid_request" and field in refused.json()["details"]
    assert (await client.post(url, json={"message": "hi"}, headers=tenant.read_headers)).status_code == 403
    assert (await client.post(url, json={"message": "hi"}, headers=other_tenant.headers)).status_code == 403
    assert (await client.get(url, headers=other_tenant.headers)).status_code == 403
    foreign = f"/api/v1/projects/{other_tenant.project_id}/contact-messages/{record.id}/replies"
    assert (
        await client.post(foreign, json={"message": "hi"}, headers=other_tenant.headers)
    ).status_code == 404
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(ContactReply)) == 0
        stored = await session.get(ContactMessage, record.id)
        assert stored is not None and stored.status == "Open"


async def test_erasure_by_the_senders_address_takes_the_thread(
    client: AsyncTestClient,
    tenant: Tenant,
    owner: User,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    record = await quiet_message(session_maker, tenant)
    sent = await client.post(replies_url(tenant, record), json={"message": "Done"}, headers=tenant.headers)
    assert sent.status_code == 201
    erased = await client.post(
        "/api/v1/privacy/erase", json={"email": "ADA@visitor.example"}, headers=tenant.headers
    )
    assert erased.json()["contact_messages"] == 1
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(ContactReply)) == 0


def test_a_slack_endpoint_reads_who_replied_to_whom_escaped() -> None:
    event = {
        "type": "contact_message.replied",
        "data": {"name": "Ada <!channel>", "email": "ada@visitor.example"},
        "reply": {"author": "grace@org-a.example", "message": "Fixed & shipped"},
    }
    assert slack_text(event) == (
        "grace@org-a.example replied to Ada &lt;!channel&gt; (ada@visitor.example): “Fixed &amp; shipped”"
    )
