"""Resolves a token digest to its organization scope: the one lookup every API request needs."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.timestamps import utc_now
from tenants.models import AccessToken, TokenScope

LAST_USED_RESOLUTION = 60.0
"""last_used_at is written at most once a minute per token (D4), not once per request."""


@dataclass(frozen=True, slots=True)
class TokenGrant:
    token_id: UUID
    org_id: UUID
    scope: str
    prefix: str

    @property
    def can_write(self) -> bool:
        return self.scope == TokenScope.WRITE


class TokenDirectory:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession]) -> None:
        self._session_maker = session_maker
        self._last_touched: dict[UUID, float] = {}

    async def lookup(self, digest: str) -> TokenGrant | None:
        """The active token with this digest, or None when unknown, revoked or deleted."""
        async with self._session_maker() as session:
            row = (
                await session.execute(
                    select(AccessToken.id, AccessToken.org_id, AccessToken.scope, AccessToken.prefix).where(
                        AccessToken.token_digest == digest, AccessToken.revoked_at.is_(None)
                    )
                )
            ).first()
        if row is None:
            return None
        grant = TokenGrant(token_id=row.id, org_id=row.org_id, scope=row.scope, prefix=row.prefix)
        await self._touch(grant)
        return grant

    async def _touch(self, grant: TokenGrant) -> None:
        now = time.monotonic()
        if now - self._last_touched.get(grant.token_id, -LAST_USED_RESOLUTION) < LAST_USED_RESOLUTION:
            return
        self._last_touched[grant.token_id] = now
        moment = utc_now()
        async with self._session_maker() as session:
            await session.execute(
                update(AccessToken)
                .where(AccessToken.id == grant.token_id)
                .where(
                    or_(
                        AccessToken.last_used_at.is_(None),
                        AccessToken.last_used_at < moment - timedelta(seconds=LAST_USED_RESOLUTION),
                    )
                )
                .values(last_used_at=moment)
            )
            await session.commit()
