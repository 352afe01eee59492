"""Recomputing a project's themes, in the background: by the periodic loop of whichever process claims
the project first (a lease in `project_insights`), when new vectors arrived since the last time (at most
every QUIET_PERIOD) or a refresh was asked for. The clustering runs in a thread; a theme that keeps most of
its items keeps its id, so links to it stay good across recomputations."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from uuid import UUID

import numpy as np
from litestar import Litestar
from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.db.models import FeedbackEmbedding, FeedbackItem, ProjectInsight, Theme
from app.db.row_locks import lock_in_id_order
from app.db.transactions import unit_of_work
from app.insights.clustering import Cluster, cluster
from app.insights.engine import InsightsEngine, insights_engine
from app.insights.jobs import queue_backfill
from app.insights.shown_items import shown
from app.insights.vectors import centred, from_bytes, language_means, reference_means
from app.timestamps import utc_now

logger = logging.getLogger("hearken.insights")

LOOP_SECONDS = 30.0
QUIET_PERIOD = timedelta(minutes=10)
LEASE = timedelta(minutes=5)
MAX_ITEMS = 10_000
"""Themes are found among the project's most recent items, this many at most."""


def _due(now: object) -> list:  # type: ignore[type-arg]
    return [
        or_(
            ProjectInsight.themes_requested.is_(True),
            and_(
                ProjectInsight.embeddings_version != ProjectInsight.themes_version,
                or_(
                    ProjectInsight.themes_computed_at.is_(None),
                    ProjectInsight.themes_computed_at < now - QUIET_PERIOD,  # type: ignore[operator]
                ),
            ),
        ),
        or_(ProjectInsight.themes_locked_until.is_(None), ProjectInsight.themes_locked_until < now),
    ]


async def claim_due_project(session_maker: async_sessionmaker[AsyncSession]) -> tuple[UUID, int] | None:
    """Lease one project whose themes are due; None when none is."""
    now = utc_now()
    async with unit_of_work(session_maker) as session:
        candidate = (
            await session.execute(
                select(ProjectInsight.id, ProjectInsight.project_id, ProjectInsight.embeddings_version)
                .where(*_due(now))
                .limit(1)
            )
        ).first()
        if candidate is None:
            return None
        claimed = await session.execute(
            update(ProjectInsight)
            .where(ProjectInsight.id == candidate[0], *_due(now))
            .values(themes_locked_until=now + LEASE, themes_requested=False, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return candidate[1], candidate[2]


async def recompute_themes(
    session_maker: async_sessionmaker[AsyncSession], engine: InsightsEngine, project_id: UUID, version: int
) -> int:
    """Cluster the project's shown items and store the themes; returns how many themes."""
    async with session_maker() as session:
        rows = list(
            await session.execute(
                select(
                    FeedbackEmbedding.id,
                    FeedbackEmbedding.language,
                    FeedbackEmbedding.vector,
                    FeedbackItem.message,
                )
                .join(FeedbackItem, FeedbackItem.id == FeedbackEmbedding.id)
                .where(
                    *shown(
                        [
                            FeedbackEmbedding.project_id == project_id,
                            FeedbackEmbedding.vector.is_not(None),
                            FeedbackEmbedding.model == engine.embedder.name,
                        ]
                    )
                )
                .order_by(FeedbackItem.created_at.desc())
                .limit(MAX_ITEMS)
            )
        )
    ids = [row[0] for row in rows]
    languages = [row[1] for row in rows]
    texts = [row[3] for row in rows]
    model = engine.embedder.name

    def compute() -> list[Cluster]:
        if not rows:
            return []
        vectors = np.stack([from_bytes(row[2]) for row in rows])
        means = language_means(vectors, languages, reference_means(model))
        return cluster(centred(vectors, languages, means), texts, languages)

    clusters = await asyncio.to_thread(compute)
    async with unit_of_work(session_maker) as session:
        await _store(session, project_id, version, [[ids[i] for i in c.members] for c in clusters], clusters)
    return len(clusters)


async def _store(
    session: AsyncSession, project_id: UUID, version: int, members: list[list[UUID]], clusters: list[Cluster]
) -> None:
    """Replace the project's themes. The insights row first, then the project's vectors in id order:
    the order in which the embedding writer takes them, so the two wait for each other, never deadlock."""
    now = utc_now()
    await session.execute(
        update(ProjectInsight)
        .where(ProjectInsight.project_id == project_id)
        .values(themes_version=version, themes_computed_at=now, themes_locked_until=None, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    await lock_in_id_order(session, FeedbackEmbedding.id, [FeedbackEmbedding.project_id == project_id])
    old: dict[UUID, set[UUID]] = {}
    for feedback_id, theme_id in await session.execute(
        select(FeedbackEmbedding.id, FeedbackEmbedding.theme_id).where(
            FeedbackEmbedding.project_id == project_id, FeedbackEmbedding.theme_id.is_not(None)
        )
    ):
        old.setdefault(theme_id, set()).add(feedback_id)
    kept: set[UUID] = set()
    current: set[UUID] = set()
    await session.execute(
        update(FeedbackEmbedding)
        .where(FeedbackEmbedding.project_id == project_id, FeedbackEmbedding.theme_id.is_not(None))
        .values(theme_id=None)
        .execution_options(synchronize_session=False)
    )
    for rows, found in zip(members, clusters, strict=True):
        group = set(rows)
        heir = max(old, key=lambda theme_id: len(old[theme_id] & group), default=None)
        if heir is not None and heir not in kept and len(old[heir] & group) * 2 > len(group):
            kept.add(heir)
            theme_id = heir
            await session.execute(
                update(Theme)
                .where(Theme.id == heir)
                .values(
                    label=found.label,
                    keywords=found.keywords,
                    name=found.name,
                    confidence=found.confidence,
                    updated_at=now,
                )
                .execution_options(synchronize_session=False)
            )
        else:
            theme_id = uuid7()
            session.add(
                Theme(
                    id=theme_id,
                    project_id=project_id,
                    label=found.label,
                    keywords=found.keywords,
                    name=found.name,
                    confidence=found.confidence,
                    created_at=now,
                    updated_at=now,
                )
            )
            await session.flush()
        current.add(theme_id)
        for start in range(0, len(rows), 500):
            await session.execute(
                update(FeedbackEmbedding)
                .where(FeedbackEmbedding.id.in_(rows[start : start + 500]))
                .values(theme_id=theme_id)
                .execution_options(synchronize_session=False)
            )
    await session.execute(
        delete(Theme).where(Theme.project_id == project_id, Theme.id.not_in(current or {uuid7()}))
    )


async def insights_round(session_maker: async_sessionmaker[AsyncSession], engine: InsightsEngine) -> None:
    """One look: queue a backfill step, then recompute the themes of every project that is due."""
    try:
        async with unit_of_work(session_maker) as session:
            await queue_backfill(session)
    except IntegrityError:  # another process queued the same items first
        logger.info("insights: another process is queueing the backfill")
    while (claimed := await claim_due_project(session_maker)) is not None:
        project_id, version = claimed
        themes = await recompute_themes(session_maker, engine, project_id, version)
        logger.info("insights: %d themes for project %s", themes, project_id)


async def look_for_themes(app: Litestar) -> None:
    """The periodic insights work of this process (`app/periodic.py`), none with embeddings off."""
    engine = insights_engine()
    if engine.enabled:
        await insights_round(app.state.session_maker, engine)


def wake_on_refresh(wanted: asyncio.Event | None) -> None:
    """A refresh request in this process sets `wanted`, so the insights loop looks at once."""
    insights_engine().themes_wanted = wanted
