"""A user's authenticator app (TOTP): its seed sealed at rest, and the last time step a code was accepted
for, so that one code cannot be used twice. A row whose `confirmed_at` is empty is a setup in progress:
the seed was shown but no code from it was entered yet, so it does not count as a factor."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class TotpAuthenticator(UUIDv7AuditBase):
    __tablename__ = "totp_authenticators"

    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)
    sealed_secret: Mapped[str] = mapped_column(String(255))
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    last_used_step: Mapped[int | None] = mapped_column(BigInteger, default=None)
