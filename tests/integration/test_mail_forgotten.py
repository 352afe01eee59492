"""Mail about a person does not outlive their data: a reply, notifications and an address confirmation
queued while the SMTP server is down, about a person then erased (or about items retention then
deletes), are never delivered once the server is back, and no queued mail row (nor address
confirmation) names them any more."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import ContactMessage, OutboundEmail, OutboxJob, Project, ReporterAddress, User
from app.db.transactions import unit_of_work
from app.mail import Mail, queue_mail
from app.services.projects import Projects
from app.services.retention import apply_retention
from app.timestamps import utc_now
from tenants.scope import Access, OrgScope
from tests.factories import Tenant
from tests.mail_server import smtp_server, text_of
from tests.server_processes import free_port

VISITOR = "Ada@Visitor.example"
CONTROL = Mail("control@example.org", "en", "password_reset", "http://x.test/r", {"email": "control"})


@pytest.fixture
def smtp_port() -> int:
    return free_port()


@pytest.fixture(name="settings")
def down_smtp_settings(database_url: str, smtp_port: int) -> Settings:
    """Mail to a port where no SMTP server listens yet, retried every 50 ms."""
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        smtp_url=f"smtp://127.0.0.1:{smtp_port}",
        outbox_poll_seconds=0.05,
        mail_retry_schedule=(0.05,) * 2000,
    )


@pytest.fixture(autouse=True)
def _owner(owner: User) -> Iterator[User]:
    yield owner  # a confirmed member who hears of every new item


async def queue_reply_and_notifications(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """The visitor writes (the owner's notification is queued), sends feedback asking to hear of it (the
    owner's notification and the address's confirmation are queued), the team replies; every mail is
    tried against the SMTP server that is down."""
    body = {"project_key": tenant.project_key, "name": "Ada", "email": VISITOR, "message": "Invoice?"}
    assert (await client.post("/api/v1/contact/submit", json=body)).status_code == 200
    feedback = {"project_key": tenant.project_key, "message": "Broken", "notify_email": VISITOR}
    assert (await client.post("/api/v1/feedback/submit", json=feedback)).status_code == 200
    async with session_maker() as session:
        message_id = await session.scalar(select(ContactMessage.id))
    url = f"/api/v1/projects/{tenant.project_id}/contact-messages/{message_id}/replies"
    assert (await client.post(url, json={"message": "Attached."}, headers=tenant.headers)).status_code == 201
    await until_tried(session_maker, 4)  # and the confirmation of the address given with the feedback


async def until_tried(session_maker: async_sessionmaker[AsyncSession], mails: int) -> None:
    """Until `mails` mails have each failed at least once."""
    for _ in range(400):
        async with session_maker() as session:
            tried = await session.scalar(
                select(func.count())
                .select_from(OutboundEmail)
                .join(OutboxJob, OutboxJob.id == OutboundEmail.id)
                .where(OutboxJob.attempts > 0, OutboundEmail.sent_at.is_(None))
            )
        if tried == mails:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{tried} mails were tried, not {mails}")


async def smtp_comes_back(smtp_port: int, session_maker: async_sessionmaker[AsyncSession]) -> list[str]:
    """The recipients of what the server receives once it is up, until a mail queued after the erasure
    arrived (the mails due before it are claimed first); and no mail row is left but that one."""
    with smtp_server(port=smtp_port) as inbox:
        async with unit_of_work(session_maker) as session:
            queue_mail(session, "test-secret-key-for-the-suite", CONTROL)
        await inbox.wait_for(1)
        await asyncio.sleep(0.3)  # anything still due would go out in the same turns
        for message in inbox.messages:
            assert "Invoice?" not in text_of(message) and "Broken" not in text_of(message)
        async with session_maker() as session:
            assert list(await session.scalars(select(OutboundEmail.recipient))) == [CONTROL.recipient]
            assert await session.scalar(select(func.count()).select_from(ReporterAddress)) == 0
        return [recipient for recipients in inbox.recipients for recipient in recipients]


async def test_erasure_voids_the_mail_queued_about_the_person(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    smtp_port: int,
) -> None:
    """Review finding 8: a reply and notifications queued while SMTP is down are not sent after the
    person is erased."""
    await queue_reply_and_notifications(client, tenant, session_maker)
    erased = await client.post("/api/v1/privacy/erase", json={"email": VISITOR}, headers=tenant.headers)
    assert erased.json() == {
        "feedback": 1,
        "ratings": 0,
        "contact_messages": 1,
        "survey_responses": 0,
        "conversations": 0,
    }
    assert await smtp_comes_back(smtp_port, session_maker) == [CONTROL.recipient]


async def test_retention_voids_the_mail_queued_about_deleted_items(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    smtp_port: int,
) -> None:
    """Review finding 8: a reply and notifications queued while SMTP is down are not sent after
    retention deletes their items."""
    await queue_reply_and_notifications(client, tenant, session_maker)
    removed = await apply_retention(session_maker, tenant.project.id, 30, utc_now() + timedelta(days=31))
    assert (removed.feedback, removed.contact_messages) == (1, 1)
    assert await smtp_comes_back(smtp_port, session_maker) == [CONTROL.recipient]


async def test_deleting_the_project_voids_its_queued_mail(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    smtp_port: int,
) -> None:
    """A reply and notifications queued while SMTP is down are not sent after their project is deleted
    (its items go with it, and so does the mail about them)."""
    await queue_reply_and_notifications(client, tenant, session_maker)
    async with unit_of_work(session_maker) as session:  # as the console's "Delete project" does
        projects = Projects(session, OrgScope(tenant.org_id, "owner", Access.ADMIN))
        await projects.delete(await session.get_one(Project, tenant.project_id))
    assert await smtp_comes_back(smtp_port, session_maker) == [CONTROL.recipient]
