"""A tag on an idea (lower case, one word or a few), for the portal's filter."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

TAG_LENGTH = 40


class IdeaTag(DefaultBase):
    __tablename__ = "idea_tags"
    __table_args__ = (Index("ix_idea_tags_project_tag", "project_id", "tag"),)

    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"), primary_key=True)
    tag: Mapped[str] = mapped_column(String(TAG_LENGTH), primary_key=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
