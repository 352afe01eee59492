"""One visitor's or user's answers to a survey, added to by later calls with the same response id."""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import Boolean, Date, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, SUBMITTED_BY_MAX_LENGTH

LANGUAGE_MAX_LENGTH = 16


class SurveyResponse(UUIDv7AuditBase):
    __tablename__ = "survey_responses"
    __table_args__ = (
        Index("ix_survey_responses_list", "survey_id", "created_at", "id"),
        Index("ix_survey_responses_project", "project_id", "created_at"),
        Index("ix_survey_responses_submitter", "project_id", "submitted_by"),
    )

    survey_id: Mapped[UUID] = mapped_column(ForeignKey("surveys.id", ondelete="CASCADE"))
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    """The survey's project, kept on the row so erasure and retention find responses per project."""
    answers: Mapped[list[dict[str, Any]]] = mapped_column(JsonB)
    """[{"question_id", "value"}], in the order they were first given."""
    language: Mapped[str] = mapped_column(String(LANGUAGE_MAX_LENGTH))
    path: Mapped[str | None] = mapped_column(String(PATH_MAX_LENGTH), default=None)
    completed: Mapped[bool] = mapped_column(Boolean, default=False)
    day: Mapped[date] = mapped_column(Date)
    """The UTC day it was first stored: the day its counts are kept under, however often it is amended."""
    submitted_by: Mapped[str | None] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH), default=None)
    submitted_by_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    spam: Mapped[bool] = mapped_column(Boolean, default=False)
    """Judged spam on arrival: kept, answered like any response, but counted, listed and announced nowhere."""
