"""Mail about unread messages, through a real SMTP server, with the job's clock set by the test: one mail
per conversation after 5 minutes unread, in the person's language to the address of their token, or to
the members with a link to the conversation; never a second within the hour; nothing for a message read
in time or for a contact reply, which was mailed already."""

from __future__ import annotations

from datetime import timedelta

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.conversations.unread_mail import mail_unread
from app.db.models import User
from app.timestamps import utc_now
from tests.factories import Tenant
from tests.integration.conversations.helpers import (
    ORIGIN,
    Person,
    identity_secret,
    mine,
    signed_contact,
    signed_feedback,
    team_url,
)
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]


def about_conversations(inbox: Inbox) -> list[tuple[list[str], str, str]]:
    """(recipients, subject, plain text) of the mails about conversations, in arrival order."""
    return [
        (rcpt, str(mail["Subject"]), text_of(mail))
        for mail, rcpt in zip(inbox.messages, inbox.recipients, strict=True)
        if "Antwort" in str(mail["Subject"])
        or "answer" in str(mail["Subject"])
        or "Unread" in str(mail["Subject"])
    ]


async def test_one_mail_per_conversation_after_five_minutes_unread_and_never_two_within_the_hour(
    client: AsyncTestClient,
    tenant: Tenant,
    owner: User,
    inbox: Inbox,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, ada, "Export to CSV drops the last row")
    query = {"project_key": tenant.project_key, "token": ada.token(email="ada@work.example"), "lang": "de"}
    listed = await client.get("/api/v1/conversations", params=query, headers=ORIGIN)
    (thread,) = listed.json()["conversations"]
    start = utc_now()
    answer = await client.post(
        team_url(tenant, thread["id"]) + "/messages",
        json={"message": "Fixed in 3.2."},
        headers=tenant.headers,
    )
    assert answer.status_code == 201, answer.text

    assert await mail_unread(session_maker, settings, start + timedelta(minutes=4)) == 0
    assert await mail_unread(session_maker, settings, start + timedelta(minutes=6)) == 1
    assert await mail_unread(session_maker, settings, start + timedelta(minutes=7)) == 0
    await client.post(
        team_url(tenant, thread["id"]) + "/messages",
        json={"message": "And in 3.1.4."},
        headers=tenant.headers,
    )
    assert await mail_unread(session_maker, settings, start + timedelta(minutes=40)) == 0
    assert await mail_unread(session_maker, settings, start + timedelta(minutes=67)) == 1

    await inbox.wait_for(2)
    mails = about_conversations(inbox)
    while len(mails) < 2:
        await inbox.wait_for(len(inbox.messages) + 1)
        mails = about_conversations(inbox)
    (first_to, first_subject, first_text), (second_to, _, second_text) = mails
    assert first_to == second_to == ["ada@work.example"]
    assert first_subject == f"Neue Antwort von {tenant.project.name}"
    assert "> Fixed in 3.2." in first_text
    assert "> And in 3.1.4." in second_text and "Fixed in 3.2." not in second_text

    sent = await client.post(
        f"/api/v1/conversations/{thread['id']}/messages",
        params=ada.query(),
        json={"message": "Thanks!"},
        headers=ORIGIN,
    )
    assert sent.status_code == 201, sent.text
    assert await mail_unread(session_maker, settings, utc_now() + timedelta(minutes=6)) == 1
    while len(about_conversations(inbox)) < 3:
        await inbox.wait_for(len(inbox.messages) + 1)
    to, subject, text = about_conversations(inbox)[2]
    assert to == [owner.email] and subject == f"Unread message from user_ada in {tenant.project.name}"
    assert "> Thanks!" in text
    assert f"/projects/{tenant.project_id}/feedback/{thread['subject']['id']}" in text


async def test_a_message_read_in_time_and_a_contact_reply_are_not_mailed_again(
    client: AsyncTestClient,
    tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, ada, "Export to CSV drops the last row")
    await signed_contact(client, ada, "Where is my invoice?", "ada@visitor.example")
    contact, feedback = await mine(client, ada)
    with_address = {"project_key": tenant.project_key, "token": ada.token(email="ada@work.example")}
    assert (await client.get("/api/v1/conversations", params=with_address, headers=ORIGIN)).status_code == 200
    replied = await client.post(
        f"/api/v1/projects/{tenant.project_id}/contact-messages/{contact['subject']['id']}/replies",
        json={"message": "It is attached."},
        headers=tenant.headers,
    )
    assert replied.status_code == 201, replied.text
    await client.post(
        team_url(tenant, feedback["id"]) + "/messages", json={"message": "Fixed."}, headers=tenant.headers
    )
    read = await client.get(f"/api/v1/conversations/{feedback['id']}", params=ada.query(), headers=ORIGIN)
    assert read.status_code == 200
    assert await mail_unread(session_maker, settings, utc_now() + timedelta(minutes=10)) == 0
