"""Queueing the news of a new item: one outbox job (kind "notify") in the transaction that stores the
item; the dispatcher later mails every member who wants every item."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from sqlalchemy import ColumnElement, CompoundSelect, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    Alert,
    ContactMessage,
    FeedbackItem,
    JobStatus,
    NotificationEvent,
    OutboxJob,
)
from app.mail import mail_about
from app.outbox import enqueue
from app.outbox.queue import delete_jobs

NOTIFY_JOB = "notify"


def queue_notification(session: AsyncSession, project_id: UUID, kind: str, subject_id: UUID) -> None:
    job = enqueue(session, NOTIFY_JOB)
    event = NotificationEvent(
        id=job.id, project_id=project_id, kind=kind, subject_id=subject_id,
        created_at=job.created_at, updated_at=job.created_at,
    )  # fmt: skip
    session.add(event)


async def forget_news_about(session: AsyncSession, about: Sequence[UUID]) -> int:
    """In the transaction that deletes these feedback items or contact messages (purge, erasure,
    retention): every mail about them goes, waiting or sent (a mail queued while SMTP was down is never
    sent; a sent one no longer names its recipient), and so does the news of them not yet turned into
    mail (a handler at work on it finds its job gone and its mails are dropped). One statement takes
    every job in id order, as the dispatcher saving results does. Returns how many jobs went."""
    if not about:
        return 0
    return await _forget(session, about, NotificationEvent.subject_id.in_(about))


async def forget_news_of_project(session: AsyncSession, project_id: UUID) -> int:
    """In the transaction that deletes a project: every mail about its feedback items, contact messages
    and alerts, waiting or sent, and its news not yet turned into mail, as `forget_news_about` does for
    deleted items (the cascades take the items, not the mail about them)."""
    about = union_all(
        select(FeedbackItem.id).where(FeedbackItem.project_id == project_id),
        select(ContactMessage.id).where(ContactMessage.project_id == project_id),
        select(Alert.id).where(Alert.project_id == project_id),
    )
    return await _forget(session, about, NotificationEvent.project_id == project_id)


async def _forget(
    session: AsyncSession, about: Sequence[UUID] | CompoundSelect, news_of: ColumnElement[bool]
) -> int:
    news = (
        select(NotificationEvent.id)
        .join(OutboxJob, OutboxJob.id == NotificationEvent.id)
        .where(OutboxJob.status == JobStatus.PENDING.value, news_of)
    )
    jobs = select(OutboxJob.id).where(or_(OutboxJob.id.in_(mail_about(about)), OutboxJob.id.in_(news)))
    return await delete_jobs(session, jobs)
