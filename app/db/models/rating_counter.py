"""Exact rating counts by project, type, path, UTC day, scale and value, kept in step with every write.

Statistics read these rows instead of scanning ratings, so they cost the same at a thousand ratings
as at ten million. Each rating is counted twice: under its own path and under ALL_PATHS.
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, Date, ForeignKey, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

ALL_PATHS = ""
"""The path under which every rating of a project is counted (real paths start with '/')."""


class RatingCounter(DefaultBase):
    __tablename__ = "rating_counters"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    rating_type: Mapped[str] = mapped_column(String(8), primary_key=True)
    path: Mapped[str] = mapped_column(String(2048), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    # max_stars for star ratings, 0 for the other types
    scale: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
