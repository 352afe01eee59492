"""An organization's single sign-on (OpenID Connect or SAML 2.0), and the email domains that sign in
through it."""

from __future__ import annotations

import secrets
from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import Boolean, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

OPENID_CONNECT = "oidc"
SAML = "saml"


class SsoConnection(UUIDv7AuditBase):
    __tablename__ = "sso_connections"

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), unique=True)
    protocol: Mapped[str] = mapped_column(String(10), default=OPENID_CONNECT, server_default=OPENID_CONNECT)
    """`oidc` or `saml`: which of the fields below describe the provider."""
    issuer: Mapped[str] = mapped_column(String(500))
    """OpenID Connect: the provider's issuer URL (its discovery document is under it, and ID tokens must
    name it). SAML: the identity provider's entity id, read from its metadata."""
    client_id: Mapped[str] = mapped_column(String(300))
    """OpenID Connect only; empty for SAML."""
    sealed_client_secret: Mapped[str] = mapped_column(Text)
    """The client secret, encrypted (app.db.secret_box); never returned, logged or shown. Empty for SAML."""
    saml_metadata: Mapped[str | None] = mapped_column(Text, default=None)
    """SAML: the identity provider's metadata XML (its sign-in URL and signing certificates), as pasted
    or as last fetched from `saml_metadata_url`."""
    saml_metadata_url: Mapped[str | None] = mapped_column(String(2000), default=None)
    """SAML: where the metadata was fetched from, when it was given by URL."""
    require_sso: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """Members sign in only through the provider; owners keep their password as a way back in."""


def verification_token() -> str:
    return secrets.token_hex(16)


class SsoDomain(UUIDv7AuditBase):
    """One email domain an organization claims for its provider. A claim sends nobody anywhere until it
    is proven (the DNS TXT record `hearken-verification=<token>` seen at the domain); a proven domain
    belongs to one organization, so no other tenant's provider can vouch for its addresses. Unproven
    claims of one domain by several organizations may stand side by side: a squatter cannot block the
    domain's owner."""

    __tablename__ = "sso_domains"
    __table_args__ = (
        UniqueConstraint("org_id", "domain", name="uq_sso_domains_org_id_domain"),
        Index(
            "uq_sso_domains_proven_domain",
            "domain",
            unique=True,
            postgresql_where=text("verified_at IS NOT NULL"),
            sqlite_where=text("verified_at IS NOT NULL"),
        ),
    )

    org_id: Mapped[UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    domain: Mapped[str] = mapped_column(String(253), index=True)
    """Lower case, IDNA-encoded (xn--...)."""
    verification_token: Mapped[str] = mapped_column(String(64), default=verification_token)
    """What the TXT record must hold after `hearken-verification=`; one per claim, shown to its admins."""
    verified_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    """When the record was seen; None: unproven, nobody is sent to the provider for this domain."""
