"""Project keys as the public endpoints need them, from an in-process cache (no query per request).

The cache generation invalidates it: a project created, changed or deleted in any process is seen on
the very next request. Unknown keys are cached too (bounded), so repeating one costs no query.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.directory_cache import DirectoryCache
from app.db.models import Project
from app.db.secret_box import SecretBox
from app.ingest.origins import origin_allowed
from app.webhooks.subscriptions import Subscription, load_subscriptions


@dataclass(frozen=True, slots=True)
class ProjectEntry:
    id: UUID
    org_id: UUID
    key: UUID
    allowed_origins: frozenset[str]
    """Normalized entries, wildcards included."""
    webhooks: tuple[Subscription, ...]
    """The organization's enabled webhook endpoints."""
    identity_secret: str | None = None
    """The project's identity secret, opened; None when it has none."""
    require_verified_users: bool = False

    def as_project(self) -> Project:
        """A detached Project with the identifiers, for services that take one; never added to a session."""
        return Project(id=self.id, org_id=self.org_id, key=self.key)


class ProjectDirectory:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], identity_box: SecretBox) -> None:
        self._session_maker = session_maker
        self._identity_box = identity_box
        self._cache: DirectoryCache[UUID, ProjectEntry] = DirectoryCache()
        self._all_origins: frozenset[str] = frozenset()
        self._all_origins_generation: int | None = None

    @property
    def generation(self) -> int | None:
        """The cache generation the cached entries were loaded at (None before the first lookup)."""
        return self._cache.generation

    async def lookup(self, key: UUID, generation: int | None) -> ProjectEntry | None:
        self._cache.sync(generation)
        cached, entry = self._cache.get(key)
        if not cached:
            entry = await self._load(key)
            self._cache.put(key, entry, generation)
        return entry

    async def any_project_allows(self, origin: str, generation: int) -> bool:
        """Whether at least one project lists this (normalized) origin: the preflight's question."""
        if self._all_origins_generation != generation:
            origins = await self._load_all_origins()
            self._all_origins, self._all_origins_generation = origins, generation
        return origin_allowed(origin, self._all_origins)

    async def _load(self, key: UUID) -> ProjectEntry | None:
        async with self._session_maker() as session:
            row = (
                await session.execute(
                    select(
                        Project.id,
                        Project.org_id,
                        Project.allowed_origins,
                        Project.sealed_identity_secret,
                        Project.require_verified_users,
                    ).where(Project.key == key)
                )
            ).first()
            if row is None:
                return None
            webhooks = await load_subscriptions(session, row.org_id)
        return ProjectEntry(
            id=row.id,
            org_id=row.org_id,
            key=key,
            allowed_origins=frozenset(row.allowed_origins),
            webhooks=webhooks,
            identity_secret=self._identity_box.open(row.sealed_identity_secret)
            if row.sealed_identity_secret
            else None,
            require_verified_users=row.require_verified_users,
        )

    async def _load_all_origins(self) -> frozenset[str]:
        async with self._session_maker() as session:
            lists = await session.scalars(select(Project.allowed_origins))
            return frozenset(origin for origins in lists for origin in origins)
