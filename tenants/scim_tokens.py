"""An organization's SCIM tokens: create (the value shown once), list, revoke; and the lookup that turns a
presented token into the scope its identity provider acts with.

The lookup reads the database on every request rather than a cache: provisioning is rare next to API
traffic, and a revoked token must be refused at once on every node."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ScimToken
from app.errors import NotFound
from app.timestamps import utc_now
from tenants.scope import Access, OrgScope
from tenants.token_format import display_prefix, token_digest

SCIM_PREFIX = "scim_"
SCIM_PATTERN = re.compile(r"^scim_[A-Za-z0-9_-]{43}$")
LAST_USED_RESOLUTION = timedelta(minutes=1)


def new_scim_token() -> str:
    return SCIM_PREFIX + secrets.token_urlsafe(32)


def scim_actor(prefix: str) -> str:
    """How the audit log names what an identity provider changes over SCIM."""
    return f"scim token {prefix}"


@dataclass(frozen=True)
class IssuedScimToken:
    record: ScimToken
    token: str
    """The plain value: returned once, never stored."""


class ScimTokens:
    """SCIM tokens of one organization; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        self.session = session
        self.org_id = scope.org_id
        self.created_by = scope.user_id

    async def create(self) -> IssuedScimToken:
        token = new_scim_token()
        record = ScimToken(
            org_id=self.org_id,
            token_digest=token_digest(token),
            prefix=display_prefix(token),
            created_by=self.created_by,
        )
        self.session.add(record)
        await self.session.flush()
        return IssuedScimToken(record=record, token=token)

    async def active(self) -> list[ScimToken]:
        result = await self.session.scalars(
            select(ScimToken)
            .where(ScimToken.org_id == self.org_id, ScimToken.revoked_at.is_(None))
            .order_by(ScimToken.created_at.desc(), ScimToken.id.desc())
        )
        return list(result)

    async def revoke(self, token_id: UUID) -> None:
        """The token's next request is refused, on every node."""
        record = await self.session.scalar(
            select(ScimToken).where(ScimToken.org_id == self.org_id, ScimToken.id == token_id)
        )
        if record is None:
            raise NotFound("no such SCIM token in this organization")
        if record.revoked_at is None:
            record.revoked_at = utc_now()
            await self.session.flush()


async def scim_scope(session: AsyncSession, token: str) -> tuple[OrgScope, UUID] | None:
    """The organization scope a presented token acts with (an owner's: it manages members, owners
    included), and the token's id; None when the token is malformed, unknown or revoked."""
    if not SCIM_PATTERN.match(token):
        return None
    row = (
        await session.execute(
            select(ScimToken.id, ScimToken.org_id, ScimToken.prefix).where(
                ScimToken.token_digest == token_digest(token), ScimToken.revoked_at.is_(None)
            )
        )
    ).first()
    if row is None:
        return None
    now = utc_now()
    await session.execute(
        update(ScimToken)
        .where(
            ScimToken.id == row.id,
            or_(ScimToken.last_used_at.is_(None), ScimToken.last_used_at < now - LAST_USED_RESOLUTION),
        )
        .values(last_used_at=now)
    )
    return OrgScope(org_id=row.org_id, actor=scim_actor(row.prefix), access=Access.OWNER), row.id
