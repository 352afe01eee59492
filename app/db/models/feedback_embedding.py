"""A feedback item's message as a vector: what similar items, search by meaning and themes compare.

The row is written with the item (vector empty, `job_id` naming the outbox job that will fill it) and
emptied again when the message changes, so an item without a vector is one still waiting ("pending").
The vector is float32 bytes, the same on SQLite and PostgreSQL: comparisons run in numpy over a
project's matrix, not in the database.
"""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import GUID
from sqlalchemy import ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column


class FeedbackEmbedding(UUIDv7AuditBase):
    __tablename__ = "feedback_embeddings"
    __table_args__ = (Index("ix_feedback_embeddings_version", "project_id", "version"),)

    id: Mapped[UUID] = mapped_column(ForeignKey("feedback_items.id", ondelete="CASCADE"), primary_key=True)
    """The feedback item's id: one row per item."""
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    job_id: Mapped[UUID | None] = mapped_column(GUID(length=16), default=None, index=True)
    """The outbox job that is to (re)compute the vector; a newer job takes over after a message change."""
    model: Mapped[str | None] = mapped_column(String(100), default=None)
    """Which embedder made the vector: vectors of different models are never compared."""
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    """The message's language as detected, for subtracting each language's mean before comparing."""
    vector: Mapped[bytes | None] = mapped_column(LargeBinary, default=None)
    """float32, L2-normalised; None while pending."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The project's embeddings_version this vector was written under (in the same transaction that moved
    it): a worker's matrix reads only the rows newer than the version it holds."""
    theme_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("themes.id", ondelete="SET NULL"), default=None, index=True
    )
