"""A survey: questions in one or more languages, shown by a trigger to an audience, or sent as a link."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC, JsonB
from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column


class SurveyStatus(enum.StrEnum):
    DRAFT = "draft"
    ACTIVE = "active"
    """Shown to visitors and accepting responses; only an active survey takes answers."""
    PAUSED = "paused"
    COMPLETED = "completed"
    """Ended by hand, by its ends_at or by reaching max_responses completed responses."""


class SurveyDisplay(enum.StrEnum):
    MODAL = "modal"
    BANNER = "banner"
    INLINE = "inline"


class Survey(UUIDv7AuditBase):
    __tablename__ = "surveys"
    __table_args__ = (
        Index("ix_surveys_list", "project_id", "created_at", "id"),
        Index("ix_surveys_status", "status", "project_id"),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default=SurveyStatus.DRAFT.value)
    languages: Mapped[list[str]] = mapped_column(JsonB)
    """Language codes; the first is the default."""
    questions: Mapped[list[dict[str, Any]]] = mapped_column(JsonB)
    """The questions as the API takes and gives them (app/surveys/definition.py checks them)."""
    display: Mapped[str] = mapped_column(String(16), default=SurveyDisplay.MODAL.value)
    trigger: Mapped[dict[str, Any]] = mapped_column(JsonB)
    audience: Mapped[dict[str, Any]] = mapped_column(JsonB)
    cooldown_days: Mapped[int] = mapped_column(Integer, default=90)
    ends_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    max_responses: Mapped[int | None] = mapped_column(Integer, default=None)
    """Completed responses after which the survey completes."""
