"""An address a feedback reporter left to hear when their feedback is resolved, per project: asked to
confirm it (when the one confirmation mail went out) and confirmed (when its owner followed the link).
Only a confirmed address gets the "resolved" mail, so nobody can make the service mail someone else.

The address itself is not kept here, only a keyed digest of it (it is on the items): the rows are the
throttle of confirmation mails and the proof of confirmation, nothing more."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class ReporterAddress(UUIDv7AuditBase):
    __tablename__ = "reporter_addresses"
    __table_args__ = (UniqueConstraint("project_id", "address_digest"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    address_digest: Mapped[str] = mapped_column(String(64), index=True)
    """HMAC-SHA256 of the address in lower case, keyed by a key derived from HEARKEN_SECRET_KEY."""
    asked_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the latest confirmation mail to the address was queued."""
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
