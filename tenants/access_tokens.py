"""The lifecycle of organization access tokens: create (value shown once), list, revoke, delete."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AccessToken, TokenScope
from app.errors import InvalidRequest, NotFound
from app.schemas.fields import NOT_ONE_LINE, is_one_line
from app.timestamps import utc_now
from tenants.scope import OrgScope, OrgScoped
from tenants.token_format import display_prefix, new_token, token_digest


@dataclass(frozen=True)
class IssuedToken:
    record: AccessToken
    token: str
    """The plain value: returned once, never stored."""


def check_label(label: str | None) -> str | None:
    if label is None:
        return None
    if not is_one_line(label):
        raise InvalidRequest("label", NOT_ONE_LINE)
    label = label.strip()
    if len(label) > 100:
        raise InvalidRequest("label", "must be at most 100 characters")
    return label or None


def check_scope(scope: str) -> str:
    if scope not in {s.value for s in TokenScope}:
        raise InvalidRequest("scope", "must be read or write")
    return scope


class AccessTokens(OrgScoped):
    """Tokens of one organization; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        super().__init__(session, scope)
        self.org_id = scope.org_id

    async def create(
        self, *, label: str | None = None, scope: str = TokenScope.WRITE.value, created_by: UUID | None = None
    ) -> IssuedToken:
        token = new_token()
        record = AccessToken(
            org_id=self.org_id,
            token_digest=token_digest(token),
            prefix=display_prefix(token),
            label=check_label(label),
            scope=check_scope(scope),
            created_by=created_by,
        )
        self.session.add(record)
        await self.session.flush()
        return IssuedToken(record=record, token=token)

    async def list(self) -> list[AccessToken]:
        result = await self.session.scalars(
            select(AccessToken)
            .where(AccessToken.org_id == self.org_id)
            .order_by(AccessToken.created_at.desc())
        )
        return list(result)

    async def get(self, token_id: UUID) -> AccessToken:
        record = await self.session.scalar(
            select(AccessToken).where(AccessToken.org_id == self.org_id, AccessToken.id == token_id)
        )
        if record is None:
            raise NotFound("no such token in this organization")
        return record

    async def revoke(self, token_id: UUID) -> AccessToken:
        """Disable the token and keep its history; takes effect on the very next request."""
        record = await self.get(token_id)
        if record.revoked_at is None:
            record.revoked_at = utc_now()
            await self.session.flush()
        return record

    async def delete(self, token_id: UUID) -> None:
        record = await self.get(token_id)
        await self.session.delete(record)
        await self.session.flush()
