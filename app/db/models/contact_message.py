"""A message sent through the contact widget."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, VERSION_MAX_LENGTH


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
