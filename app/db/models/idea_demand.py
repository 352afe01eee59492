"""A feedback item counted as demand for an idea (one idea per item); its reporter's `notify_email`
hears when the idea is done."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column


class IdeaDemand(DefaultBase):
    __tablename__ = "idea_demands"

    feedback_id: Mapped[UUID] = mapped_column(
        ForeignKey("feedback_items.id", ondelete="CASCADE"), primary_key=True
    )
    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"), index=True)
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
