"""A rating of any type (helpful, star, nps) in one table: the value is an integer for all three."""

from __future__ import annotations

import enum
from typing import Any
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import JsonB
from sqlalchemy import Boolean, ForeignKey, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, SUBMITTED_BY_MAX_LENGTH, VERSION_MAX_LENGTH


class RatingType(enum.StrEnum):
    HELPFUL = "helpful"
    STAR = "star"
    NPS = "nps"


class Rating(UUIDv7AuditBase):
    __tablename__ = "ratings"
    __table_args__ = (
        Index("ix_ratings_list", "project_id", "rating_type", "archived", "created_at", "id"),
        Index("ix_ratings_path", "project_id", "rating_type", "path", "archived", "created_at"),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    rating_type: Mapped[str] = mapped_column(String(8))
    # helpful: 1 (helpful) or 0; star: 1..max_stars; nps: 0..10
    value: Mapped[int] = mapped_column(SmallInteger)
    max_stars: Mapped[int | None] = mapped_column(Integer, default=None)
    path: Mapped[str | None] = mapped_column(String(PATH_MAX_LENGTH), default=None)
    version: Mapped[str | None] = mapped_column(String(VERSION_MAX_LENGTH), default=None)
    submitted_by: Mapped[str | None] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH), default=None)
    submitted_by_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether submitted_by came with a valid signature made with the project's identity secret."""
    custom_data: Mapped[dict[str, Any] | None] = mapped_column("metadata", JsonB, default=None)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
