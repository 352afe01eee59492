"""Exact counts of feedback items by project, archived flag, status, type and source.

Kept in step with every create and change of an item, in the same transaction, so list totals and
projects' feedback_count cost the same at a thousand items as at a million.
"""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, Boolean, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class FeedbackCounter(DefaultBase):
    __tablename__ = "feedback_counters"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    archived: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), primary_key=True)
    type: Mapped[str] = mapped_column(String(16), primary_key=True)
    source: Mapped[str] = mapped_column(String(16), primary_key=True)
    count: Mapped[int] = mapped_column(BigInteger, default=0)
