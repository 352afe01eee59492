"""Embedding after the commit: each new or changed message gets an outbox job (kind "embed") in the
transaction that stores it; the dispatcher's `EmbedSender` computes the vectors off the event loop and
writes them. Items stored before insights existed (or before another embedder was chosen) are queued by
`queue_backfill`, from the periodic loop and from `hearken insights backfill`."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from uuid import UUID

from sqlalchemy import and_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.db.models import FeedbackEmbedding, FeedbackItem, ProjectInsight
from app.db.transactions import unit_of_work
from app.insights.engine import insights_engine
from app.insights.vector_jobs import VectorSender, queue_vector_rows
from app.insights.vectors import to_bytes
from app.outbox import ClaimedJob, Outcome
from app.timestamps import utc_now

logger = logging.getLogger("hearken.insights")

EMBED_JOB = "embed"
BACKFILL_CHUNK = 16
"""Items per backfill job: a group of claimed jobs must end well within its lease on 2 busy cores."""
LEASE_MARGIN = timedelta(seconds=10)


async def queue_embeddings(session: AsyncSession, items: Sequence[FeedbackItem]) -> None:
    """Ask for the vectors of these items (new, or their message changed), in the caller's transaction;
    with insights off nothing is queued (a backfill catches up when they are turned on)."""
    if not items or not insights_engine().enabled:
        return
    ids, projects = [item.id for item in items], {item.id: item.project_id for item in items}
    await queue_vector_rows(
        session,
        EMBED_JOB,
        ids,
        select(FeedbackEmbedding).where(FeedbackEmbedding.id.in_(ids)),
        lambda row: row.id,
        lambda item_id, job_id: FeedbackEmbedding(id=item_id, project_id=projects[item_id], job_id=job_id),
    )


async def queue_backfill(session: AsyncSession, limit: int = 1024) -> int:
    """Queue up to `limit` items that have no vector of the current embedder and none coming, in jobs of
    BACKFILL_CHUNK; returns how many. Two processes racing insert the same rows: one of them fails and
    rolls back, so each item is queued once."""
    engine = insights_engine()
    if not engine.enabled:
        return 0
    missing = list(
        await session.scalars(
            select(FeedbackItem)
            .outerjoin(FeedbackEmbedding, FeedbackEmbedding.id == FeedbackItem.id)
            .where(FeedbackEmbedding.id.is_(None))
            .order_by(FeedbackItem.created_at.desc())
            .limit(limit)
        )
    )
    stale = list(
        await session.scalars(
            select(FeedbackItem)
            .join(FeedbackEmbedding, FeedbackEmbedding.id == FeedbackItem.id)
            .where(FeedbackEmbedding.vector.is_not(None), FeedbackEmbedding.model != engine.embedder.name)
            .limit(max(0, limit - len(missing)))
        )
    )
    items = missing + stale
    for start in range(0, len(items), BACKFILL_CHUNK):
        await queue_embeddings(session, items[start : start + BACKFILL_CHUNK])
    await session.flush()
    return len(items)


class EmbedSender(VectorSender):
    """The outbox handler of kind "embed": each job's items embedded in one batch and saved at once."""

    kind = EMBED_JOB
    share = 4
    """Embedding jobs one process holds at once, beside (not instead of) mail and webhooks; they embed
    one after another, paced (`Pace`)."""
    lease_margin = LEASE_MARGIN

    async def embed_job(self, job: ClaimedJob) -> Outcome:
        async with self._session_maker() as session:
            rows = list(
                await session.execute(
                    select(FeedbackEmbedding.id, FeedbackEmbedding.project_id, FeedbackItem.message)
                    .join(FeedbackItem, FeedbackItem.id == FeedbackEmbedding.id)
                    .where(FeedbackEmbedding.job_id == job.id)
                )
            )
        if not rows:  # the items were deleted, or a newer job took them over
            return Outcome(ok=True)
        vectors, languages = await self.embed([row[2] for row in rows])
        await self._save(job.id, rows, vectors, languages)
        return Outcome(ok=True)

    async def _save(self, job_id: UUID, rows: list, vectors, languages: list[str | None]) -> None:  # type: ignore[type-arg]
        now = utc_now()
        name = self.model
        async with unit_of_work(self._session_maker) as session:
            # The version moves first: its row lock orders the writers of one project, so a reader
            # that sees version V finds every vector written under V or before already committed.
            # Projects, then rows, are taken in id order, as every writer of many rows takes them.
            versions = {
                project_id: await bump_version(session, project_id)
                for project_id in sorted({row[1] for row in rows})
            }
            written = sorted(zip(rows, vectors, languages, strict=True), key=lambda entry: entry[0][0])
            for (feedback_id, project_id, _), vector, language in written:
                await session.execute(
                    update(FeedbackEmbedding)
                    .where(and_(FeedbackEmbedding.id == feedback_id, FeedbackEmbedding.job_id == job_id))
                    .values(
                        vector=to_bytes(vector), model=name, language=language, version=versions[project_id],
                        updated_at=now,
                    )
                    .execution_options(synchronize_session=False)
                )  # fmt: skip


async def bump_version(session: AsyncSession, project_id: UUID) -> int:
    """The project's vectors change: every worker's matrix of it is out of date. Returns the new version."""
    await update_insight(session, project_id, embeddings_version=ProjectInsight.embeddings_version + 1)
    version = await session.scalar(
        select(ProjectInsight.embeddings_version).where(ProjectInsight.project_id == project_id)
    )
    return int(version or 0)


async def update_insight(session: AsyncSession, project_id: UUID, **values: object) -> None:
    """Change the project's insights row, made first if it is not there yet (by one of several
    processes or tasks at once: the others' inserts do nothing)."""
    now = utc_now()
    dialect = session.get_bind().dialect.name
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    await session.execute(
        insert(ProjectInsight)
        .values(
            id=uuid7(), project_id=project_id, embeddings_version=0, themes_version=0, themes_requested=False,
            created_at=now, updated_at=now,
        )
        .on_conflict_do_nothing(index_elements=["project_id"])
    )  # fmt: skip
    await session.execute(
        update(ProjectInsight)
        .where(ProjectInsight.project_id == project_id)
        .values(updated_at=now, **values)
        .execution_options(synchronize_session=False)
    )
