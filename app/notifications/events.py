"""Queueing the news of a new item: one outbox job (kind "notify") in the transaction that stores the
item; the dispatcher later mails every member who wants every item."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import NotificationEvent
from app.outbox import enqueue

NOTIFY_JOB = "notify"


def queue_notification(session: AsyncSession, project_id: UUID, kind: str, subject_id: UUID) -> None:
    job = enqueue(session, NOTIFY_JOB)
    event = NotificationEvent(
        id=job.id, project_id=project_id, kind=kind, subject_id=subject_id,
        created_at=job.created_at, updated_at=job.created_at,
    )  # fmt: skip
    session.add(event)
