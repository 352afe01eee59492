"""A theme: a group of a project's feedback items that say the same thing, found by clustering their
vectors and labelled with the messages' own words. Items name their theme in `feedback_embeddings`."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import Float, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class Theme(UUIDv7AuditBase):
    __tablename__ = "themes"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(200))
    """The message closest to the theme's centre, shortened: the feedback's own words."""
    keywords: Mapped[list[str]] = mapped_column(JsonB)
    """The words that set this theme apart from the others (class-based TF-IDF)."""
    name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    """Two to five of its members' words in the project's main language ("dark mode, theme")."""
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    """0..1: how close its members sit to its centre; None until recomputed."""
