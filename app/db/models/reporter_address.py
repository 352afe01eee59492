"""An address a feedback reporter left to hear when their feedback is resolved, per project: asked to
confirm it (when the one confirmation mail went out) and confirmed (when its owner followed the link).
Only a confirmed address gets the "resolved" mail, so nobody can make the service mail someone else.

The rows are the throttle of confirmation mails and the proof of confirmation; erasure by the address
deletes them, and so does retention once a row has been left alone for the project's retention days."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class ReporterAddress(UUIDv7AuditBase):
    __tablename__ = "reporter_addresses"
    __table_args__ = (UniqueConstraint("project_id", "address"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(320), index=True)
    """In lower case, as every comparison of reporters' addresses is made."""
    asked_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the latest confirmation mail to the address was queued."""
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
