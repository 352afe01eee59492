"""A single-use link to a hosted survey page, made for one user by a lifecycle event."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import SUBMITTED_BY_MAX_LENGTH
from app.db.models.survey_response import LANGUAGE_MAX_LENGTH


class SurveyLink(UUIDv7AuditBase):
    __tablename__ = "survey_links"

    survey_id: Mapped[UUID] = mapped_column(ForeignKey("surveys.id", ondelete="CASCADE"), index=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    """SHA-256 of the link's token: the token itself is only in the link."""
    user_id: Mapped[str] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH))
    """The customer's id of the user: the response's submitted_by, verified."""
    language: Mapped[str | None] = mapped_column(String(LANGUAGE_MAX_LENGTH), default=None)
    expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """Set by the hosted page's submit: the link then opens nothing."""
