"""Per project: how far its vectors and its themes are, and who is recomputing the themes.

`embeddings_version` moves whenever vectors of the project are written; a worker keeps the project's
matrix until it moves. Themes are due when it has moved past `themes_version` (new items arrived) or a
refresh was asked for; `themes_locked_until` is the lease of the one process recomputing them.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import Boolean, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column


class ProjectInsight(UUIDv7AuditBase):
    __tablename__ = "project_insights"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    embeddings_version: Mapped[int] = mapped_column(Integer, default=0)
    themes_version: Mapped[int] = mapped_column(Integer, default=0)
    """The embeddings_version the current themes were computed from."""
    themes_computed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    themes_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    themes_locked_until: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
