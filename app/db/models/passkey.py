"""A passkey (a WebAuthn credential) a user registered: its id and public key as the authenticator gave
them, and the signature counter it last reported. Only the public key is stored: nothing here signs in."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import BigInteger, ForeignKey, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column


class Passkey(UUIDv7AuditBase):
    __tablename__ = "passkeys"

    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    """Base64url, as the browser names it (at most 1023 bytes)."""
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """COSE-encoded."""
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    name: Mapped[str] = mapped_column(String(100))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
