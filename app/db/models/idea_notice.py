"""That an address was told an idea is done (or shipped): the proof that it is never told twice."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class IdeaNotice(DefaultBase):
    __tablename__ = "idea_notices"

    idea_id: Mapped[UUID] = mapped_column(ForeignKey("ideas.id", ondelete="CASCADE"), primary_key=True)
    recipient: Mapped[str] = mapped_column(String(320), primary_key=True)
    """The address, in lower case."""
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
