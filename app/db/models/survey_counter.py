"""Exact counts of a survey's answers per UTC day, language, question and value.

Written in the same transaction as the responses they count, so a survey's results sum days, not
responses. question_id "" holds the survey's own counts: value "responses" and "completed". For a
question, value "" counts the responses that answered it; every other value counts one answer value
(a rating or score as its number, a choice id, "true"/"false").
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, Date, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.survey_response import LANGUAGE_MAX_LENGTH

SURVEY_TOTALS = ""
"""The question_id of the survey's own counts."""
ANSWERED = ""
"""The value that counts a question's answers."""


class SurveyCounter(DefaultBase):
    __tablename__ = "survey_counters"

    survey_id: Mapped[UUID] = mapped_column(ForeignKey("surveys.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    language: Mapped[str] = mapped_column(String(LANGUAGE_MAX_LENGTH), primary_key=True)
    question_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(40), primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
