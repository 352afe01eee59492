"""An idea a changelog entry names (shipped in it)."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column


class ChangelogIdea(DefaultBase):
    __tablename__ = "changelog_ideas"

    entry_id: Mapped[UUID] = mapped_column(
        ForeignKey("changelog_entries.id", ondelete="CASCADE"), primary_key=True
    )
    idea_id: Mapped[UUID] = mapped_column(
        ForeignKey("ideas.id", ondelete="CASCADE"), primary_key=True, index=True
    )
