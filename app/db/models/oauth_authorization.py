"""One authorization request of an OAuth client: waiting for a member's consent (found by the secret in
the consent page's address), then holding the one-time code the client exchanges. Both secrets are stored
as SHA-256 digests; the row is deleted when the code is exchanged and is worth nothing once expired."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import Boolean, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class OAuthAuthorization(UUIDv7AuditBase):
    __tablename__ = "oauth_authorizations"

    request_digest: Mapped[str] = mapped_column(String(64), unique=True)
    client_id: Mapped[UUID] = mapped_column(ForeignKey("oauth_clients.id", ondelete="CASCADE"), index=True)
    redirect_uri: Mapped[str] = mapped_column(Text)
    redirect_uri_provided_explicitly: Mapped[bool] = mapped_column(Boolean)
    code_challenge: Mapped[str] = mapped_column(String(128))
    state: Mapped[str | None] = mapped_column(Text, default=None)
    resource: Mapped[str | None] = mapped_column(Text, default=None)
    expires_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    code_digest: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    org_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), default=None, index=True
    )
    user_id: Mapped[UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), default=None)
