"""One person's vote for one idea (taken back: the row goes). The person's address and language are kept
for the one mail that tells them the idea is done."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.idea import PERSON_KEY_LENGTH


class IdeaVote(DefaultBase):
    __tablename__ = "idea_votes"
    __table_args__ = (Index("ix_idea_votes_voter", "project_id", "voter_key"),)

    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"), primary_key=True)
    voter_key: Mapped[str] = mapped_column(String(PERSON_KEY_LENGTH), primary_key=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200), default="")
    email: Mapped[str | None] = mapped_column(String(320), default=None)
    language: Mapped[str] = mapped_column(String(8), default="en")
    created_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
