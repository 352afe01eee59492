"""A feedback item: a message with a type, a triage status and a source."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import Boolean, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.field_rules import PATH_MAX_LENGTH, SUBMITTED_BY_MAX_LENGTH, VERSION_MAX_LENGTH
from app.db.models.user import User


class FeedbackStatus(enum.StrEnum):
    NEW = "New"
    ACTIVE = "Active"
    ASSIGNED = "Assigned"
    HOLD = "Hold"
    CLOSED = "Closed"
    RESOLVED = "Resolved"


class FeedbackType(enum.StrEnum):
    BUG = "Bug"
    FEATURE = "Feature"
    PRAISE = "Praise"
    QUESTION = "Question"
    IMPROVEMENT = "Improvement"
    OTHER = "Other"


class FeedbackSource(enum.StrEnum):
    WIDGET = "Widget"
    MANUAL = "Manual"
    MINTLIFY = "Mintlify"
    STRIPE = "Stripe"
    POLAR = "Polar"


class FeedbackItem(UUIDv7AuditBase):
    __tablename__ = "feedback_items"
    __table_args__ = (
        Index("ix_feedback_list", "project_id", "archived", "created_at", "id"),
        Index("ix_feedback_updated", "project_id", "archived", "updated_at", "id"),
        Index("ix_feedback_status", "project_id", "archived", "status", "created_at"),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    message: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=FeedbackStatus.NEW.value)
    type: Mapped[str] = mapped_column(String(16), default=FeedbackType.OTHER.value)
    source: Mapped[str] = mapped_column(String(16), default=FeedbackSource.MANUAL.value)
    path: Mapped[str | None] = mapped_column(String(PATH_MAX_LENGTH), default=None)
    version: Mapped[str | None] = mapped_column(String(VERSION_MAX_LENGTH), default=None)
    submitted_by: Mapped[str | None] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH), default=None)
    submitted_by_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether submitted_by came with a valid signature made with the project's identity secret."""
    resolution_note: Mapped[str | None] = mapped_column(Text, default=None)
    custom_data: Mapped[dict[str, Any] | None] = mapped_column("metadata", JsonB, default=None)
    """The submitter's or importer's key-value details, stored as the `metadata` column."""
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    spam: Mapped[bool] = mapped_column(Boolean, default=False)
    """Judged spam on arrival (a filled honeypot, a form sent too fast) or by a member: kept, but out of
    lists, counts, statistics, notifications and webhooks until marked not spam."""
    assignee_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None, index=True
    )
    """The member the item is assigned to (a user of the project's organization), or None."""
    assignee: Mapped[User | None] = relationship(lazy="selectin")
    """Loaded with the items in one more query per list: answers show the assignee's email."""
    duplicate_of_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("feedback_items.id", ondelete="SET NULL"), default=None, index=True
    )
    """The item of the same project this one repeats (it was closed when marked), or None."""
    notify_email: Mapped[str | None] = mapped_column(String(320), default=None)
    """The reporter's address, given to be told when the item is resolved; erasure by email covers it."""
    resolved_mail_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the one "resolved" mail to `notify_email` was queued: it is never sent twice."""
