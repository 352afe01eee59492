"""One piece of work that must happen after a commit (a webhook delivery, later an email): the outbox.

A job is written in the same transaction as the change that calls for it, so a crash right after the
commit loses nothing; a dispatcher in the server processes claims it when due and does it.
"""

from __future__ import annotations

import enum
from datetime import datetime

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column


class JobStatus(enum.StrEnum):
    PENDING = "pending"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class OutboxJob(UUIDv7AuditBase):
    __tablename__ = "outbox_jobs"
    __table_args__ = (
        # Only pending jobs are ever looked for; done ones stay as a record without slowing the claim.
        Index(
            "ix_outbox_jobs_due",
            "kind",
            "due_at",
            postgresql_where=text("status = 'pending'"),
            sqlite_where=text("status = 'pending'"),
        ),
    )

    kind: Mapped[str] = mapped_column(String(32))
    """Which handler does the work, e.g. "webhook"."""
    status: Mapped[str] = mapped_column(String(16), default=JobStatus.PENDING.value)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    """When the next attempt may start."""
    locked_until: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """The lease of the dispatcher working on it; once past, another may take the job over."""
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
