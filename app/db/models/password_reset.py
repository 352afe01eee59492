"""A request to set a new password without the old one: a one-time link mailed to the account's address,
stored only as the SHA-256 digest of its secret."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class PasswordReset(UUIDv7AuditBase):
    __tablename__ = "password_resets"

    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
