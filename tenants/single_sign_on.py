"""Single sign-on per organization: the provider an admin configures (client secret sealed at rest), the
email domains it signs in, which organization an address belongs to, and the member a first sign-in
creates.

An address is trusted only for the organization that proved its domain: a claimed domain sends nobody to
the provider until the DNS TXT record `hearken-verification=<token>` shown to its admins is seen at the
domain, a proven domain belongs to one organization, and public mail domains cannot be claimed at all. An
account that already exists signs in through a provider only where it is already a member (invited
first), so a provider cannot take over an account that another organization's members share.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit
from uuid import UUID

import idna
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Membership, Role, SamlAssertion, SsoConnection, SsoDomain, User
from app.db.models.sso_connection import OPENID_CONNECT, SAML
from app.db.secret_box import SSO_CLIENT_SECRETS, secret_box
from app.errors import InvalidRequest
from app.timestamps import utc_now
from tenants.members import Members
from tenants.organizations import check_email
from tenants.permissions import require
from tenants.public_mail_domains import is_public_mail_domain
from tenants.scope import Access, OrgScope, OrgScoped, operator_scope

MAX_DOMAINS = 20
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
PROOF_PREFIX = "hearken-verification="
SSO_ONLY_PASSWORD = "!sso-only:"
"""The start of the stored password of an account made by a first sign-in: never a valid argon2 hash,
so no password matches it until the person sets one through "Forgot password"."""


@dataclass(frozen=True)
class DomainClaim:
    domain: str
    record: str
    """The TXT record that proves it: `hearken-verification=<token>`."""
    verified_at: datetime | None


@dataclass(frozen=True)
class SsoSettings:
    issuer: str
    client_id: str
    client_secret: str | None
    """None keeps the secret already stored."""
    domains: tuple[str, ...]
    require_sso: bool


@dataclass(frozen=True)
class SamlSettings:
    entity_id: str
    """The identity provider's entity id, read from `metadata`."""
    metadata: str
    """The identity provider's metadata XML, checked by the caller."""
    metadata_url: str | None
    domains: tuple[str, ...]
    require_sso: bool


def check_issuer(issuer: str) -> str:
    """An https URL (plain http only on this machine, for a provider under test) without query or
    fragment: ID tokens must name exactly this issuer."""
    issuer = issuer.strip()
    parts = urlsplit(issuer)
    local = parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS
    if len(issuer) > 500 or not parts.hostname or not (parts.scheme == "https" or local):
        raise InvalidRequest("issuer", "must be the provider's https URL (at most 500 characters)")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise InvalidRequest("issuer", "must have no query, fragment or credentials")
    return issuer


def check_domain(domain: str) -> str:
    """Lower case and IDNA-encoded; a name with a dot, like example.com."""
    name = domain.strip().lstrip("@").rstrip(".").lower()
    try:
        encoded = idna.encode(name, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        raise InvalidRequest("domains", f"{domain.strip()!r} is not a domain name") from None
    if "." not in encoded or len(encoded) > 253:
        raise InvalidRequest("domains", f"{domain.strip()!r} is not a domain name like example.com")
    return encoded


def parse_domains(text: str) -> tuple[str, ...]:
    """Domains separated by commas, spaces or lines, each once, in the order given."""
    names = [check_domain(part) for part in text.replace(",", " ").split()]
    unique = tuple(dict.fromkeys(names))
    if len(unique) > MAX_DOMAINS:
        raise InvalidRequest("domains", f"at most {MAX_DOMAINS} domains")
    return unique


def email_domain(email: str) -> str | None:
    """The IDNA-encoded domain of an address, or None when it has none worth looking up."""
    _, at, domain = email.strip().rpartition("@")
    if not at:
        return None
    try:
        return check_domain(domain)
    except InvalidRequest:
        return None


class SsoConnections(OrgScoped):
    """One organization's single sign-on settings; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope, settings: Settings) -> None:
        super().__init__(session, scope)
        self.box = secret_box(settings.secret_key, SSO_CLIENT_SECRETS)

    async def get(self) -> SsoConnection | None:
        return await self.session.scalar(
            select(SsoConnection).where(SsoConnection.org_id == self.scope.org_id)
        )

    async def domains(self) -> list[str]:
        return [claim.domain for claim in await self.claims()]

    async def claims(self) -> list[DomainClaim]:
        rows = await self.session.scalars(
            select(SsoDomain).where(SsoDomain.org_id == self.scope.org_id).order_by(SsoDomain.domain)
        )
        return [
            DomainClaim(row.domain, PROOF_PREFIX + row.verification_token, row.verified_at) for row in rows
        ]

    async def prove(self, domain: str, records: Sequence[str]) -> None:
        """Mark a claimed domain proven when `records` (its TXT records, as the DNS answered) hold its
        token, unless another organization proved it first."""
        require(self.scope, Access.ADMIN)
        claim = await self.session.scalar(
            select(SsoDomain).where(SsoDomain.org_id == self.scope.org_id, SsoDomain.domain == domain)
        )
        if claim is None:
            raise InvalidRequest("domain", f"{domain} is not one of this organization's domains")
        if claim.verified_at is not None:
            return
        await self._check_unclaimed((domain,))
        expected = PROOF_PREFIX + claim.verification_token
        if expected not in (record.strip() for record in records):
            raise InvalidRequest("domain", f"no TXT record {expected} at {domain} yet")
        claim.verified_at = utc_now()
        try:
            async with self.session.begin_nested():
                await self.session.flush()
        except IntegrityError:  # another organization proved it meanwhile
            raise InvalidRequest("domain", f"{domain} signs in to another organization already") from None

    async def save(self, wanted: SsoSettings) -> SsoConnection:
        """Create or change the connection (over OpenID Connect from now on) and replace its domains,
        in the caller's transaction."""
        require(self.scope, Access.ADMIN)
        issuer = check_issuer(wanted.issuer)
        client_id = wanted.client_id.strip()
        if not client_id or len(client_id) > 300:
            raise InvalidRequest("client_id", "must be given (at most 300 characters)")
        await self._check_domains(wanted.domains)
        connection = await self.get()
        secret = (wanted.client_secret or "").strip()
        if (connection is None or not connection.sealed_client_secret) and not secret:
            raise InvalidRequest("client_secret", "must be given")
        if len(secret) > 2000:
            raise InvalidRequest("client_secret", "must be at most 2000 characters")
        if connection is None:
            connection = SsoConnection(org_id=self.scope.org_id, issuer=issuer, client_id=client_id)
            self.session.add(connection)
        connection.protocol = OPENID_CONNECT
        connection.issuer, connection.client_id = issuer, client_id
        connection.saml_metadata = connection.saml_metadata_url = None
        connection.require_sso = wanted.require_sso
        if secret:
            connection.sealed_client_secret = self.box.seal(secret)
        await self._replace_domains(wanted.domains)
        await self.session.flush()
        return connection

    async def save_saml(self, wanted: SamlSettings) -> SsoConnection:
        """Create or change the connection (over SAML from now on) and replace its domains, in the
        caller's transaction. An OpenID Connect client secret stored before is dropped."""
        require(self.scope, Access.ADMIN)
        await self._check_domains(wanted.domains)
        connection = await self.get()
        if connection is None:
            connection = SsoConnection(org_id=self.scope.org_id)
            self.session.add(connection)
        connection.protocol = SAML
        connection.issuer, connection.client_id, connection.sealed_client_secret = wanted.entity_id, "", ""
        connection.saml_metadata, connection.saml_metadata_url = wanted.metadata, wanted.metadata_url
        connection.require_sso = wanted.require_sso
        await self._replace_domains(wanted.domains)
        await self.session.flush()
        return connection

    async def remove(self) -> None:
        """Single sign-on off: the connection and its domains go, passwords work again."""
        require(self.scope, Access.ADMIN)
        connection = await self.get()
        if connection is not None:
            await self.session.delete(connection)
        for row in await self.session.scalars(select(SsoDomain).where(SsoDomain.org_id == self.scope.org_id)):
            await self.session.delete(row)
        await self.session.flush()

    async def _check_domains(self, domains: tuple[str, ...]) -> None:
        if not domains:
            raise InvalidRequest("domains", "name at least one email domain, like example.com")
        for domain in domains:
            if is_public_mail_domain(domain):
                raise InvalidRequest(
                    "domains", f"{domain} is a public mail domain: anyone can have an address there"
                )
        await self._check_unclaimed(domains)

    async def _check_unclaimed(self, domains: tuple[str, ...]) -> None:
        """Another organization's proven domain cannot be claimed; its unproven claims are no obstacle."""
        taken = await self.session.scalar(
            select(SsoDomain.domain)
            .where(
                SsoDomain.domain.in_(domains),
                SsoDomain.org_id != self.scope.org_id,
                SsoDomain.verified_at.is_not(None),
            )
            .limit(1)
        )
        if taken is not None:
            raise InvalidRequest("domains", f"{taken} signs in to another organization already")

    async def _replace_domains(self, domains: tuple[str, ...]) -> None:
        """Row by row, so that each domain that goes is in the audit log; a domain kept keeps its proof."""
        rows = await self.session.scalars(select(SsoDomain).where(SsoDomain.org_id == self.scope.org_id))
        current = {row.domain: row for row in rows}
        for domain, row in current.items():
            if domain not in domains:
                await self.session.delete(row)
        for domain in domains:
            if domain not in current:
                self.session.add(SsoDomain(org_id=self.scope.org_id, domain=domain))


async def connection_for_email(session: AsyncSession, email: str) -> SsoConnection | None:
    """The connection of the organization that proved this address's domain, if any."""
    domain = email_domain(email)
    if domain is None:
        return None
    return await session.scalar(
        select(SsoConnection)
        .join(SsoDomain, SsoDomain.org_id == SsoConnection.org_id)
        .where(SsoDomain.domain == domain, SsoDomain.verified_at.is_not(None))
    )


async def connection_of(session: AsyncSession, org_id: UUID) -> SsoConnection | None:
    return await session.scalar(select(SsoConnection).where(SsoConnection.org_id == org_id))


async def claims_domain(session: AsyncSession, org_id: UUID, email: str) -> bool:
    """Whether the organization proved the address's domain: its provider vouches for no other."""
    domain = email_domain(email)
    if domain is None:
        return False
    found = await session.scalar(
        select(SsoDomain.id).where(
            SsoDomain.org_id == org_id, SsoDomain.domain == domain, SsoDomain.verified_at.is_not(None)
        )
    )
    return found is not None


async def use_assertion(session: AsyncSession, org_id: UUID, assertion_id: str, expires_at: datetime) -> bool:
    """Record a SAML assertion as used; False when it was used before (on any node). Assertions past
    their expiry are forgotten here too: they would be refused as expired anyway."""
    await session.execute(delete(SamlAssertion).where(SamlAssertion.expires_at < utc_now()))
    session.add(SamlAssertion(org_id=org_id, assertion_id=assertion_id, expires_at=expires_at))
    try:
        async with session.begin_nested():
            await session.flush()
    except IntegrityError:
        return False
    return True


def sso_required(role: str, require_sso: bool) -> bool:
    """Whether a member with this role must sign in through the organization's provider: "Require SSO"
    is on and the member is not an owner (owners keep their password as the way back in when the
    provider fails)."""
    return require_sso and role != Role.OWNER


async def password_refused(session: AsyncSession, membership: Membership) -> bool:
    required = await session.scalar(
        select(SsoConnection.require_sso).where(SsoConnection.org_id == membership.org_id)
    )
    return sso_required(membership.role, bool(required))


class NotAMember(Exception):
    """The address has an account that is not a member of the organization: it must be invited."""


async def member_signing_in(session: AsyncSession, org_id: UUID, email: str) -> tuple[User, Membership]:
    """The member a verified address signs in as: an existing member, or at the first sign-in a new
    account (its address confirmed by the provider) joined with the role member. In the caller's
    transaction."""
    email = check_email(email)
    user = await session.scalar(select(User).where(func.lower(User.email) == email))
    if user is None:
        user = User(
            email=email,
            password_hash=SSO_ONLY_PASSWORD + secrets.token_urlsafe(32),
            email_verified_at=utc_now(),
        )
        session.add(user)
        await session.flush()
        membership = await Members(session, operator_scope(org_id, "sso")).add(user.id, Role.MEMBER.value)
        return user, membership
    membership = await session.scalar(
        select(Membership).where(Membership.org_id == org_id, Membership.user_id == user.id)
    )
    if membership is None:
        raise NotAMember
    return user, membership
