"""A message sent through the contact widget."""

from __future__ import annotations

import enum
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, SUBMITTED_BY_MAX_LENGTH, VERSION_MAX_LENGTH


class ContactStatus(enum.StrEnum):
    OPEN = "Open"
    ANSWERED = "Answered"
    """A member has replied to it."""


class ContactMessage(UUIDv7AuditBase):
    __tablename__ = "contact_messages"
    __table_args__ = (Index("ix_contact_list", "project_id", "archived", "created_at", "id"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str | None] = mapped_column(String(200), default=None)
    message: Mapped[str] = mapped_column(Text)
    path: Mapped[str | None] = mapped_column(String(PATH_MAX_LENGTH), default=None)
    version: Mapped[str | None] = mapped_column(String(VERSION_MAX_LENGTH), default=None)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    spam: Mapped[bool] = mapped_column(Boolean, default=False)
    """Judged spam on arrival (a filled honeypot, a form sent too fast) or by a member: kept, but out of
    lists, counts, statistics, notifications and webhooks until marked not spam."""
    status: Mapped[str] = mapped_column(String(16), default=ContactStatus.OPEN.value)
    submitted_by: Mapped[str | None] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH), default=None)
    submitted_by_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether submitted_by came with a valid signature made with the project's identity secret."""
