"""Exact rating counts by project, type, path, UTC day, scale, value, version and reason, kept in step
with every write.

Statistics read these rows instead of scanning ratings, so they cost the same at a thousand ratings
as at ten million. Each rating is counted twice: under its own path and under ALL_PATHS.
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, Date, ForeignKey, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, VERSION_MAX_LENGTH

ALL_PATHS = ""
"""The path under which every rating of a project is counted (real paths start with '/')."""
NO_VERSION = ""
"""The version under which ratings without one are counted."""
NO_REASON = ""
"""The reason under which ratings without one (every star and nps rating) are counted."""
REASON_LENGTH = 64
"""The longest reason counted: a helpful rating's metadata.reason, a string of 1 to 64 characters."""


class RatingCounter(DefaultBase):
    __tablename__ = "rating_counters"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    rating_type: Mapped[str] = mapped_column(String(8), primary_key=True)
    path: Mapped[str] = mapped_column(String(PATH_MAX_LENGTH), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    # max_stars for star ratings, 0 for the other types
    scale: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    # the ratings' version, NO_VERSION when they have none
    version: Mapped[str] = mapped_column(String(VERSION_MAX_LENGTH), primary_key=True, default=NO_VERSION)
    # a helpful rating's reason (metadata.reason), NO_REASON when it gives none
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH), primary_key=True, default=NO_REASON)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
