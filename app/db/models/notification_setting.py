"""How a member hears about one project's new feedback and contact messages: a mail for every item, one
daily digest, or nothing. A member without a row gets the default of their role (every item for owners
and admins, nothing for members)."""

from __future__ import annotations

import enum
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class Frequency(enum.StrEnum):
    EACH = "each"
    DAILY = "daily"
    OFF = "off"


class NotificationSetting(UUIDv7AuditBase):
    __tablename__ = "notification_settings"
    __table_args__ = (UniqueConstraint("user_id", "project_id"),)

    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), index=True)
    feedback: Mapped[str] = mapped_column(String(8))
    contact: Mapped[str] = mapped_column(String(8))
    alerts: Mapped[str | None] = mapped_column(String(8), default=None)
    """A mail for each alert opened ("each") or none ("off"); None: the role's default."""
