"""An image attached to a feedback item: decoded and re-encoded on arrival, stored in the database with
its item so every node serves it and a database backup holds it."""

from __future__ import annotations

import builtins
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, deferred, mapped_column


class FeedbackAttachment(UUIDv7AuditBase):
    __tablename__ = "feedback_attachments"

    organization_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    feedback_id: Mapped[UUID] = mapped_column(ForeignKey("feedback_items.id", ondelete="CASCADE"), index=True)
    content_type: Mapped[str] = mapped_column(String(16))
    bytes: Mapped[int] = mapped_column(Integer)
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    # Deferred: lists and item bodies read the description, only the image route reads the image.
    data: Mapped[builtins.bytes] = deferred(mapped_column(LargeBinary))  # `bytes` is the size column here
