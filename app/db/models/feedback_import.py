"""An upstream record already imported into a project: the unique key makes every import idempotent.

Kept apart from the feedback item it produced (no foreign key to it), so an item deleted for good
(erasure, retention) is not imported again by the next sync or a replayed event.
"""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class FeedbackImport(UUIDv7AuditBase):
    __tablename__ = "feedback_imports"
    __table_args__ = (UniqueConstraint("project_id", "source", "external_id", name="uq_feedback_import"),)

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    source: Mapped[str] = mapped_column(String(16))
    external_id: Mapped[str] = mapped_column(String(255))
    """Stripe: the event id; Mintlify: the feedback id."""
