"""One job cannot hold up the others: a name with a line break reaches a mail subject as one line, a mail
that cannot be composed fails for good on its own, and any crash of a handler is a failed attempt of the
job it crashed on while the jobs claimed with it go on (here: another organization's password reset)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from uuid import UUID

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import JobStatus, OutboxJob, Project
from app.db.transactions import unit_of_work
from app.mail import Mail, queue_mail
from app.mail.outbox import mail_box, queue_sealed
from app.outbox import ClaimedJob, Dispatcher, Outcome, enqueue
from app.services.password_reset_mail import mail_password_reset
from tests.console_helpers import add_user
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

INJECTED = "Docs\r\nBcc: victim@example.org"
PRIVATE = "private words of the job"


async def job_state(session_maker: async_sessionmaker[AsyncSession], job_id: UUID) -> OutboxJob:
    async with session_maker() as session:
        return await session.get_one(OutboxJob, job_id)


async def until_attempted(session_maker: async_sessionmaker[AsyncSession], job_id: UUID) -> OutboxJob:
    for _ in range(200):
        job = await job_state(session_maker, job_id)
        if job.attempts:
            return job
        await asyncio.sleep(0.025)  # the dispatcher's saves have no event to await
    raise AssertionError("the job was never attempted")


async def test_a_name_with_a_line_break_reaches_a_subject_as_one_line_and_holds_no_one_up(
    client: AsyncTestClient,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    other_tenant: Tenant,
    inbox: Inbox,
) -> None:
    """A project name saved before names had to be one line, mailed in the same batch as another
    organization's password reset."""
    async with unit_of_work(session_maker) as session:
        await session.execute(update(Project).where(Project.id == tenant.project.id).values(name=INJECTED))
    other_owner = await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    async with unit_of_work(session_maker) as session:
        name = await session.scalar(select(Project.name).where(Project.id == tenant.project.id))
        assert name == INJECTED
        notification = Mail(
            recipient="owner@org-a.example",
            language="en",
            kind="new_feedback",
            url="http://127.0.0.1/",
            values={"project": name, "type": "bug"},
        )
        queue_mail(session, settings.secret_key, notification)
        await mail_password_reset(session, settings, other_owner.email)

    messages = await inbox.wait_for(2, seconds=5)
    by_recipient = {message["To"]: message for message in messages}
    assert by_recipient["owner@org-b.example"]["Subject"] == "Reset your Hearken password"
    notified = by_recipient["owner@org-a.example"]
    assert notified["Subject"] == "New feedback in Docs Bcc: victim@example.org"
    assert notified["Bcc"] is None
    assert sorted(inbox.recipients) == [["owner@org-a.example"], ["owner@org-b.example"]]


async def test_a_mail_that_cannot_be_composed_fails_alone_and_for_good(
    client: AsyncTestClient,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    other_tenant: Tenant,
    inbox: Inbox,
    caplog: pytest.LogCaptureFixture,
) -> None:
    other_owner = await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    broken = Mail(recipient="someone@org-a.example", language="en", kind="password_reset", url="", values={})
    async with unit_of_work(session_maker) as session:
        record = queue_sealed(
            session, broken, mail_box(settings.secret_key).seal("secret link, not a message")
        )
        await mail_password_reset(session, settings, other_owner.email)
    with caplog.at_level(logging.INFO):
        (reset,) = await inbox.wait_for(1, seconds=5)
        assert reset["To"] == "owner@org-b.example"
        failed = await until_attempted(session_maker, record.id)
    assert (failed.status, failed.attempts) == (JobStatus.FAILED, 1)
    assert failed.last_error == "the stored message cannot be read"
    assert "secret link" not in caplog.text


class Crashing:
    """A kind of work whose handler raises whenever the job named `poison` is among its jobs."""

    kind = "crash-test"
    share = 8
    retry_delays: Sequence[float] = (60.0,)

    def __init__(self) -> None:
        self.poison: UUID | None = None
        self.done: list[UUID] = []

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        for job in jobs:
            if job.id == self.poison:
                raise RuntimeError(PRIVATE)
        for job in jobs:
            self.done.append(job.id)
            yield job, Outcome(ok=True)


async def test_a_handler_crash_is_a_failed_attempt_of_that_job_only(
    session_maker: async_sessionmaker[AsyncSession], caplog: pytest.LogCaptureFixture
) -> None:
    handler = Crashing()
    async with unit_of_work(session_maker) as session:
        jobs = [enqueue(session, handler.kind) for _ in range(5)]
    handler.poison = jobs[2].id
    dispatcher = Dispatcher(session_maker, [handler], wake=asyncio.Event(), poll_seconds=0.05)
    with caplog.at_level(logging.INFO):
        dispatcher.start()
        try:
            poisoned = await until_attempted(session_maker, jobs[2].id)
            others = [await until_attempted(session_maker, job.id) for job in jobs if job is not jobs[2]]
        finally:
            await dispatcher.stop()
    assert {job.status for job in others} == {JobStatus.SUCCEEDED}
    assert sorted(handler.done) == sorted(job.id for job in others)
    assert (poisoned.status, poisoned.attempts) == (JobStatus.PENDING, 1)  # retried after its delay
    assert poisoned.last_error == "the crash-test handler failed (RuntimeError)"
    assert poisoned.locked_until is None
    assert "private words" not in caplog.text
