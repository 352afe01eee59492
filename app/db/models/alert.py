"""An alert: one episode of something that got worse in a project (a page's or version's ratings fell, a
theme surged, negative answers spiked). While it is not resolved, new evidence updates the same row; the
partial unique index lets a project hold only one unresolved episode per kind and subject, so two checks
racing cannot open it twice."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import Float, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

UNRESOLVED = text("status != 'resolved'")


class Alert(UUIDv7AuditBase):
    __tablename__ = "alerts"
    __table_args__ = (
        Index("ix_alerts_project_status", "project_id", "status"),
        Index(
            "uq_alerts_episode",
            "project_id",
            "kind",
            "subject_key",
            unique=True,
            postgresql_where=UNRESOLVED,
            sqlite_where=UNRESOLVED,
        ),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    subject_key: Mapped[str] = mapped_column(String(64))
    """SHA-256 of what the alert is about (kind-specific): the key of the one-episode rule."""
    subject: Mapped[dict[str, Any]] = mapped_column(JsonB)
    status: Mapped[str] = mapped_column(String(16), default="open")
    title: Mapped[str] = mapped_column(String(400))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    p_value: Mapped[float] = mapped_column(Float)
    examples: Mapped[list[dict[str, Any]]] = mapped_column(JsonB)
    evidence: Mapped[dict[str, Any]] = mapped_column(JsonB)
    """What the console draws: a small series of (label, value, count) and what each side measured."""
    opened_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    unsettled_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    """The last check that still found the subject outside its baseline: 24 hours later it resolves."""
    resolved_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    acknowledged_by: Mapped[str | None] = mapped_column(String(320), default=None)
