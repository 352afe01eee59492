"""Per project: its alert rules, the lease of the one process checking it, and the hourly readings of its
negative and total answers (running totals, so an hour's count is the difference of two readings and a
check never counts rating rows)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column


class AlertWatch(UUIDv7AuditBase):
    __tablename__ = "alert_watches"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), unique=True)
    rules: Mapped[dict[str, Any] | None] = mapped_column(JsonB, default=None)
    """The project's own rules; None: the defaults."""
    readings: Mapped[list[list[Any]]] = mapped_column(JsonB, default=list)
    """[[ISO time, negative answers so far, answers so far], ...], oldest first, the last 29 days."""
    checked_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    locked_until: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
