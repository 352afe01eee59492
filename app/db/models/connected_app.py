"""An assistant connected to one organization by a member's consent: its access and refresh tokens, bound
to that organization and acting with that member's access. Tokens are stored only as SHA-256 digests;
each refresh replaces both, so an old refresh token is worth nothing."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column


class ConnectedApp(UUIDv7AuditBase):
    __tablename__ = "connected_apps"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    client_id: Mapped[UUID] = mapped_column(ForeignKey("oauth_clients.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    """The member who consented: the app acts with their role in the organization."""
    access_digest: Mapped[str] = mapped_column(String(64), unique=True)
    access_expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    refresh_digest: Mapped[str] = mapped_column(String(64), unique=True)
    refresh_expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
