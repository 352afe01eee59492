"""All-time rating counts by project, type, path, scale, value, version and reason: rating_counters
without the day.

Statistics without a time range, list totals and the console's counts read these rows, so their cost
is the same at a thousand ratings as at ten million and does not grow with the days a project has
collected either. Kept in step with rating_counters in the same transactions.
"""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, ForeignKey, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import PATH_MAX_LENGTH, VERSION_MAX_LENGTH
from app.db.models.rating_counter import NO_REASON, NO_VERSION, REASON_LENGTH


class RatingTotal(DefaultBase):
    __tablename__ = "rating_totals"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    rating_type: Mapped[str] = mapped_column(String(8), primary_key=True)
    path: Mapped[str] = mapped_column(String(PATH_MAX_LENGTH), primary_key=True)
    # max_stars for star ratings, 0 for the other types
    scale: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    # the ratings' version, NO_VERSION when they have none
    version: Mapped[str] = mapped_column(String(VERSION_MAX_LENGTH), primary_key=True, default=NO_VERSION)
    # a helpful rating's reason (metadata.reason), NO_REASON when it gives none
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH), primary_key=True, default=NO_REASON)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
