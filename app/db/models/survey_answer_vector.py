"""An open-text survey answer as a vector, for the themes of a question's answers.

Written with the answer (vector empty, `job_id` naming the outbox job that fills it) and emptied again
when an amendment changes the text; it goes with its response (erasure, retention, deletion).
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import GUID
from sqlalchemy import Date, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.survey_response import LANGUAGE_MAX_LENGTH


class SurveyAnswerVector(DefaultBase):
    __tablename__ = "survey_answer_vectors"
    __table_args__ = (Index("ix_survey_answer_vectors_question", "survey_id", "question_id", "day"),)

    response_id: Mapped[UUID] = mapped_column(
        ForeignKey("survey_responses.id", ondelete="CASCADE"), primary_key=True
    )
    question_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    survey_id: Mapped[UUID] = mapped_column(ForeignKey("surveys.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    """The response's day and language, so that results' filters apply to themes too."""
    language: Mapped[str] = mapped_column(String(LANGUAGE_MAX_LENGTH))
    job_id: Mapped[UUID | None] = mapped_column(GUID(length=16), default=None, index=True)
    model: Mapped[str | None] = mapped_column(String(100), default=None)
    text_language: Mapped[str | None] = mapped_column(String(8), default=None)
    """The text's language as detected, for subtracting each language's mean before clustering."""
    vector: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    """float32, L2-normalised; None while pending."""
