"""A new feedback item or contact message to tell members about: queued in the outbox (kind "notify",
sharing its job's id) in the transaction that stored it, and turned into mails by the dispatcher."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import GUID
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.outbox_job import OutboxJob


class NotificationEvent(UUIDv7AuditBase):
    __tablename__ = "notification_events"

    id: Mapped[UUID] = mapped_column(ForeignKey("outbox_jobs.id", ondelete="CASCADE"), primary_key=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    """"feedback" or "contact"."""
    subject_id: Mapped[UUID] = mapped_column(GUID(length=16))
    """The feedback item's or contact message's id (gone when it was deleted meanwhile: nothing is sent)."""
    job: Mapped[OutboxJob] = relationship(lazy="raise")
    """Never loaded: it tells the unit of work that the job's row is inserted first."""
