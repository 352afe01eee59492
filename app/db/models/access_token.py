"""An organization access token: only its SHA-256 digest and a display prefix are stored."""

from __future__ import annotations

import enum
from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class TokenScope(enum.StrEnum):
    READ = "read"
    WRITE = "write"


class AccessToken(UUIDv7AuditBase):
    __tablename__ = "access_tokens"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(12))
    label: Mapped[str | None] = mapped_column(String(100), default=None)
    scope: Mapped[str] = mapped_column(String(8), default=TokenScope.WRITE.value)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    created_by: Mapped[UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
