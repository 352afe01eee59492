"""One recorded change of one field of a feedback item (its history)."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class FeedbackChange(UUIDv7AuditBase):
    __tablename__ = "feedback_changes"

    feedback_id: Mapped[UUID] = mapped_column(ForeignKey("feedback_items.id", ondelete="CASCADE"), index=True)
    field: Mapped[str] = mapped_column(String(32))
    from_value: Mapped[str | None] = mapped_column(Text, default=None)
    to_value: Mapped[str | None] = mapped_column(Text, default=None)
    changed_by: Mapped[str] = mapped_column(String(320))
