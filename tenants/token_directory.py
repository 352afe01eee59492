"""Resolves a token digest to its organization scope: the one lookup every API request needs. The access
tokens of apps connected by OAuth (MCP assistants) are looked up here too, in a cache of their own.

Answers come from an in-process cache that the shared cache generation invalidates (a revoke or delete
in any process is seen on the very next request), so a request costs one generation check, not a query.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.cache_generation import CacheGeneration
from app.db.directory_cache import DirectoryCache
from app.db.models import AccessToken, ConnectedApp, Membership, OAuthClient, TokenScope, User
from app.db.transactions import unit_of_work
from app.timestamps import utc_now

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


@dataclass(frozen=True, slots=True)
class AppGrant:
    """A connected app's access token: its organization, and the consenting member's current role."""

    app_id: UUID
    org_id: UUID
    user_id: UUID
    email: str
    role: str
    client_name: str
    expires_at: datetime


class TokenDirectory:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], generation: CacheGeneration) -> None:
        self._session_maker = session_maker
        self._generation = generation
        self._cache: DirectoryCache[str, TokenGrant] = DirectoryCache()
        self._apps: DirectoryCache[str, AppGrant] = DirectoryCache()
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
            await self._touch(AccessToken, grant.token_id)
        return grant

    async def lookup_app(self, digest: str) -> AppGrant | None:
        """The connected app with this access token digest, or None when unknown, expired, revoked,
        rotated away by a refresh, or its member has left the organization."""
        generation = await self._generation.current()
        self._apps.sync(generation)
        cached, grant = self._apps.get(digest)
        if not cached:
            grant = await self._load_app(digest)
            self._apps.put(digest, grant, generation)
        if grant is None or grant.expires_at <= utc_now():
            return None
        await self._touch(ConnectedApp, grant.app_id)
        return grant

    async def _load_app(self, digest: str) -> AppGrant | None:
        async with self._session_maker() as session:
            row = (
                await session.execute(
                    select(
                        ConnectedApp.id,
                        ConnectedApp.org_id,
                        ConnectedApp.user_id,
                        User.email,
                        Membership.role,
                        OAuthClient.name,
                        ConnectedApp.access_expires_at,
                    )
                    .join(User, User.id == ConnectedApp.user_id)
                    .join(
                        Membership,
                        (Membership.user_id == ConnectedApp.user_id)
                        & (Membership.org_id == ConnectedApp.org_id),
                    )
                    .join(OAuthClient, OAuthClient.id == ConnectedApp.client_id)
                    .where(ConnectedApp.access_digest == digest, ConnectedApp.revoked_at.is_(None))
                )
            ).first()
        return None if row is None else AppGrant(*row)

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

    async def _touch(self, model: type[AccessToken] | type[ConnectedApp], row_id: UUID) -> None:
        """A bulk UPDATE: it bypasses the unit of work, so it does not move the cache generation."""
        now = time.monotonic()
        if now - self._last_touched.get(row_id, -LAST_USED_RESOLUTION) < LAST_USED_RESOLUTION:
            return
        self._last_touched[row_id] = now
        moment = utc_now()
        async with unit_of_work(self._session_maker) as session:
            await session.execute(
                update(model)
                .where(model.id == row_id)
                .where(
                    or_(
                        model.last_used_at.is_(None),
                        model.last_used_at < moment - timedelta(seconds=LAST_USED_RESOLUTION),
                    )
                )
                .values(last_used_at=moment)
            )
