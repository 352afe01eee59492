"""An issue filed in a tracker (GitHub, Linear, Jira) for a feedback item: the item shows it, and the
tracker's webhooks find the item by it."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class LinkedIssue(UUIDv7AuditBase):
    __tablename__ = "linked_issues"
    __table_args__ = (UniqueConstraint("project_id", "tracker", "key", name="uq_linked_issue"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    feedback_id: Mapped[UUID] = mapped_column(ForeignKey("feedback_items.id", ondelete="CASCADE"), index=True)
    tracker: Mapped[str] = mapped_column(String(16))
    """A TrackerKind."""
    key: Mapped[str] = mapped_column(String(255))
    """How the tracker names the issue: "owner/name#12" on GitHub, "ENG-12" in Linear and Jira."""
    url: Mapped[str] = mapped_column(String(2000))
    state: Mapped[str] = mapped_column(String(16), default="open")
    """"open" or "closed", as the tracker's webhooks last said."""
    changed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the tracker says the change its webhooks last applied was made: a delivery of an older change
    (late, or replayed under a new delivery id) changes nothing."""
