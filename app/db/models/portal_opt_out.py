"""An address that unsubscribed from a project's idea mails (one click in such a mail)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import DefaultBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class PortalOptOut(DefaultBase):
    __tablename__ = "portal_opt_outs"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    recipient: Mapped[str] = mapped_column(String(320), primary_key=True)
    """The address, in lower case."""
    created_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
