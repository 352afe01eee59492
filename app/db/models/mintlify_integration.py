"""A project's import of Mintlify page feedback, with the state of its last sync."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class MintlifyIntegration(UUIDv7AuditBase):
    __tablename__ = "mintlify_integrations"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    mintlify_project_id: Mapped[str] = mapped_column(String(200))
    sealed_api_key: Mapped[str] = mapped_column(Text)
    """The admin API key, encrypted (app.db.secret_box); never returned, logged or shown."""
    imported: Mapped[int] = mapped_column(Integer, default=0)
    """Feedback items this integration has created, over all its syncs."""
    newest_created_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """The newest upstream createdAt imported: the next sync asks from there."""
    last_synced_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    next_sync_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True), index=True)
    """When the periodic import is next due; a process claims a sync by moving it forward atomically."""
