"""Resolves a token digest to its organization scope: the one lookup every API request needs.

Answers come from an in-process cache that the shared cache generation invalidates (a revoke or delete
in any process is seen on the very next request), so a request costs one generation check, not a query.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.cache_generation import CacheGeneration
from app.db.directory_cache import DirectoryCache
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tenants.models import AccessToken, TokenScope

LAST_USED_RESOLUTION = 60.0
"""last_used_at is written at most once a minute per token, not once per request."""


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
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], generation: CacheGeneration) -> None:
        self._session_maker = session_maker
        self._generation = generation
        self._cache: DirectoryCache[str, TokenGrant] = DirectoryCache()
        self._last_touched: dict[UUID, float] = {}

    async def lookup(self, digest: str) -> TokenGrant | None:
        """The active token with this digest, or None when unknown, revoked or deleted."""
        generation = await self._generation.current()
        self._cache.sync(generation)
        cached, grant = self._cache.get(digest)
        if not cached:
            grant = await self._load(digest)
            self._cache.put(digest, grant, generation)
        if grant is not None:
            await self._touch(grant)
        return grant

    async def _load(self, digest: str) -> TokenGrant | None:
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
        return TokenGrant(token_id=row.id, org_id=row.org_id, scope=row.scope, prefix=row.prefix)

    async def _touch(self, grant: TokenGrant) -> None:
        now = time.monotonic()
        if now - self._last_touched.get(grant.token_id, -LAST_USED_RESOLUTION) < LAST_USED_RESOLUTION:
            return
        self._last_touched[grant.token_id] = now
        moment = utc_now()
        async with unit_of_work(self._session_maker) as session:
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
