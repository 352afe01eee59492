"""One member's daily digest of one day: its row is the claim that makes the digest go out once, whatever
the number of processes looking for due digests."""

from __future__ import annotations

from datetime import date
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Date, ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column


class NotificationDigest(UUIDv7AuditBase):
    __tablename__ = "notification_digests"
    __table_args__ = (UniqueConstraint("user_id", "day"),)

    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
