"""One email waiting to be sent, or sent: its state (pending, attempts, next attempt) is its outbox
job's, which shares its id.

The message itself (bodies and headers, links with one-time secrets among them) is kept encrypted with a
key derived from HEARKEN_SECRET_KEY, and emptied once it is sent: a database dump shows who was mailed
what kind of mail, never a usable link.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.outbox_job import OutboxJob


class OutboundEmail(UUIDv7AuditBase):
    __tablename__ = "outbound_emails"

    id: Mapped[UUID] = mapped_column(ForeignKey("outbox_jobs.id", ondelete="CASCADE"), primary_key=True)
    recipient: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(32))
    """Which mail it is: "password_reset", "invitation", ..."""
    sealed_message: Mapped[str] = mapped_column(Text)
    """The subject, bodies and extra headers as encrypted JSON; empty once sent."""
    sent_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    about_id: Mapped[UUID | None] = mapped_column(default=None, index=True)
    """The feedback item or contact message the mail is about (a reply, a notification, a reporter's
    mail), when there is one: deleting that row (purge, erasure, retention) deletes its mail with it,
    sent or not, so nothing queued about an erased person goes out later."""
    job: Mapped[OutboxJob] = relationship(lazy="raise")
    """Never loaded: it tells the unit of work that the job's row is inserted first."""
