"""An idea on a project's public portal: suggested by a person (or created by the team), voted on,
commented, answered by the team, and moved through its statuses; a duplicate is merged into another.

`vote_count` and `comment_count` are kept in the same transaction as the votes and comments they count
(the portal's list sorts by them without counting), and checked against a recount in the tests."""

from __future__ import annotations

import enum
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

TITLE_LENGTH = 120
BODY_LENGTH = 5000
PERSON_KEY_LENGTH = 200
"""A person's key: "u:" and the customer's user id (signed or in a token), or "e:" and a confirmed
address in lower case."""


class IdeaStatus(enum.StrEnum):
    PENDING = "pending"
    """Suggested and not yet approved: seen only by its author and the team."""
    OPEN = "open"
    PLANNED = "planned"
    IN_PROGRESS = "in_progress"
    DONE = "done"
    DECLINED = "declined"


class Idea(UUIDv7AuditBase):
    __tablename__ = "ideas"
    __table_args__ = (
        Index("ix_ideas_project_votes", "project_id", "vote_count", "id"),
        Index("ix_ideas_project_created", "project_id", "created_at"),
        Index("ix_ideas_author", "project_id", "author_key"),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(TITLE_LENGTH))
    body: Mapped[str] = mapped_column(Text, default="")
    """Markdown, rendered sanitized wherever it is shown."""
    status: Mapped[str] = mapped_column(String(16), default=IdeaStatus.OPEN.value)
    response: Mapped[str | None] = mapped_column(Text, default=None)
    """The team's public answer (Markdown)."""
    vote_count: Mapped[int] = mapped_column(Integer, default=0)
    comment_count: Mapped[int] = mapped_column(Integer, default=0)
    demand_count: Mapped[int] = mapped_column(Integer, default=0)
    """Feedback items linked to the idea as demand for it."""
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)
    spam: Mapped[bool] = mapped_column(Boolean, default=False)
    merged_into_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("ideas.id", ondelete="SET NULL"), default=None, index=True
    )
    author_key: Mapped[str | None] = mapped_column(String(PERSON_KEY_LENGTH), default=None)
    """The suggesting person's key; None for an idea the team created."""
    author_name: Mapped[str] = mapped_column(String(200), default="")
    author_email: Mapped[str | None] = mapped_column(String(320), default=None)
    author_language: Mapped[str] = mapped_column(String(8), default="en")
