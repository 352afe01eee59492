"""An entry of a project's public changelog: unpublished (a draft) until `published_at`."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

ENTRY_TITLE_LENGTH = 200


class ChangelogEntry(UUIDv7AuditBase):
    __tablename__ = "changelog_entries"
    __table_args__ = (Index("ix_changelog_entries_published", "project_id", "published_at"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(ENTRY_TITLE_LENGTH))
    body: Mapped[str] = mapped_column(Text, default="")
    published_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
