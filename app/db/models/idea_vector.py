"""An idea's title and description as a vector, for offering similar ideas while someone types a
suggestion and for merge suggestions. Written with the idea (vector empty, `job_id` naming the outbox job
that fills it), emptied again when the text changes."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import GUID
from sqlalchemy import ForeignKey, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column


class IdeaVector(DefaultBase):
    __tablename__ = "idea_vectors"

    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"), primary_key=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    job_id: Mapped[UUID | None] = mapped_column(GUID(length=16), default=None, index=True)
    model: Mapped[str | None] = mapped_column(String(100), default=None)
    text_language: Mapped[str | None] = mapped_column(String(8), default=None)
    vector: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    """float32, L2-normalised; None while pending."""
