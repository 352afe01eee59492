"""Embedding after the commit: each new or changed message gets an outbox job (kind "embed") in the
transaction that stores it; the dispatcher's `EmbedSender` computes the vectors off the event loop and
writes them. Items stored before insights existed (or before another embedder was chosen) are queued by
`queue_backfill`, from the periodic loop and from `hearken insights backfill`."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from uuid import UUID

from sqlalchemy import and_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.db.models import FeedbackEmbedding, FeedbackItem, ProjectInsight
from app.db.transactions import unit_of_work
from app.insights.embedders import EmbeddingsUnavailable
from app.insights.engine import InsightsEngine, insights_engine
from app.insights.languages import language_of
from app.insights.vectors import to_bytes
from app.operations.metrics import REQUEST_STATS
from app.outbox import ClaimedJob, Outcome, enqueue
from app.timestamps import utc_now

logger = logging.getLogger("hearken.insights")

EMBED_JOB = "embed"
BACKFILL_CHUNK = 16
"""Items per backfill job: a group of claimed jobs must end well within its lease on 2 busy cores."""
LEASE_MARGIN = timedelta(seconds=10)
RETRY_DELAYS = (10.0, 60.0, 300.0, 1800.0, 3600.0, 21600.0)
PAUSE = 3.0
"""After a job that overlapped requests, the next waits this many times the job's duration."""


async def queue_embeddings(session: AsyncSession, items: Sequence[FeedbackItem]) -> None:
    """Ask for the vectors of these items (new, or their message changed), in the caller's transaction;
    with insights off nothing is queued (a backfill catches up when they are turned on)."""
    if not items or not insights_engine().enabled:
        return
    job = enqueue(session, EMBED_JOB)
    existing = {
        row.id: row
        for row in await session.scalars(
            select(FeedbackEmbedding).where(FeedbackEmbedding.id.in_([item.id for item in items]))
        )
    }
    for item in items:
        row = existing.get(item.id)
        if row is None:
            session.add(FeedbackEmbedding(id=item.id, project_id=item.project_id, job_id=job.id))
        else:
            row.job_id, row.vector = job.id, None


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


class EmbedSender:
    """The outbox handler of kind "embed": each job's items embedded in one batch and saved at once."""

    kind = EMBED_JOB
    share = 4
    """Embedding jobs one process holds at once, beside (not instead of) mail and webhooks; they embed
    one after another, paced (`Pace`)."""

    def __init__(self, session_maker: async_sessionmaker[AsyncSession], engine: InsightsEngine) -> None:
        self._session_maker = session_maker
        self._engine = engine
        self._pace = Pace(REQUEST_STATS.answered)

    @property
    def retry_delays(self) -> Sequence[float]:
        return RETRY_DELAYS

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        for job in jobs:
            async with self._pace.turn():
                if utc_now() > job.lease - LEASE_MARGIN:
                    return  # the rest is taken again once the lease ends, rather than done twice
                outcome = await self._embed(job)
            yield job, outcome

    async def _embed(self, job: ClaimedJob) -> Outcome:
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
        texts = [row[2] for row in rows]
        try:
            vectors = await self._engine.embedder.embed(texts)
        except EmbeddingsUnavailable as exc:
            return Outcome(ok=False, error=str(exc)[:500])
        # Off the event loop too: the detector's first call loads its model.
        languages = await asyncio.to_thread(languages_of, texts)
        await self._save(job.id, rows, vectors, languages)
        return Outcome(ok=True)

    async def _save(self, job_id: UUID, rows: list, vectors, languages: list[str | None]) -> None:  # type: ignore[type-arg]
        now = utc_now()
        name = self._engine.embedder.name
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


class Pace:
    """Embedding gives way to requests: after a job during which the process answered requests, the next
    one waits PAUSE times as long as that job took. While requests keep coming, embedding takes at most
    1 / (1 + PAUSE) of the time; an idle process embeds at full speed."""

    def __init__(
        self,
        answered: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._answered = answered
        self._clock = clock
        self._sleep = sleep
        self._resume_at = 0.0
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        async with self._lock:  # one job at a time, however many the dispatcher runs
            await self._sleep(max(0.0, self._resume_at - self._clock()))
            answered, started = self._answered(), self._clock()
            try:
                yield
            finally:
                if self._answered() != answered:
                    ended = self._clock()
                    self._resume_at = ended + PAUSE * (ended - started)


def languages_of(texts: Sequence[str]) -> list[str | None]:
    return [language_of(text) for text in texts]


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
