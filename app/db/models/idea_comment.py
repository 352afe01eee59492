"""A comment on an idea, by a person or by the team (`team`), possibly answering another comment."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.idea import PERSON_KEY_LENGTH

COMMENT_LENGTH = 5000


class IdeaComment(UUIDv7AuditBase):
    __tablename__ = "idea_comments"
    __table_args__ = (
        Index("ix_idea_comments_idea", "idea_id", "created_at"),
        Index("ix_idea_comments_author", "project_id", "author_key"),
    )

    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"))
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    parent_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("idea_comments.id", ondelete="CASCADE"), default=None
    )
    author_key: Mapped[str | None] = mapped_column(String(PERSON_KEY_LENGTH), default=None)
    author_name: Mapped[str] = mapped_column(String(200), default="")
    author_email: Mapped[str | None] = mapped_column(String(320), default=None)
    body: Mapped[str] = mapped_column(Text)
    team: Mapped[bool] = mapped_column(Boolean, default=False)
    spam: Mapped[bool] = mapped_column(Boolean, default=False)
