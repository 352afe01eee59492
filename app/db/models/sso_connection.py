"""An organization's single sign-on over OpenID Connect, and the email domains that sign in through it."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import Boolean, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class SsoConnection(UUIDv7AuditBase):
    __tablename__ = "sso_connections"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), unique=True)
    issuer: Mapped[str] = mapped_column(String(500))
    """The provider's issuer URL: its discovery document is under it, and ID tokens must name it."""
    client_id: Mapped[str] = mapped_column(String(300))
    sealed_client_secret: Mapped[str] = mapped_column(Text)
    """The client secret, encrypted (app.db.secret_box); never returned, logged or shown."""
    require_sso: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """Members sign in only through the provider; owners keep their password as a way back in."""


class SsoDomain(UUIDv7AuditBase):
    """One email domain claimed by one organization: an address there is sent to its provider. A domain
    belongs to one organization at most, so no other tenant's provider can vouch for its addresses."""

    __tablename__ = "sso_domains"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    domain: Mapped[str] = mapped_column(String(253), unique=True)
    """Lower case, IDNA-encoded (xn--...)."""
