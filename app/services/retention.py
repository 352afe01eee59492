"""Retention: a project with `retention_days` keeps its feedback items, ratings, contact messages and survey
responses (with the links lifecycle events made), and its portal's ideas and comments, for that many days;
older ones are deleted for good, with every counter kept exact, and so are the webhook deliveries of the
project's events made before then (each carries a copy of its item), and every mail about a deleted item or
message, waiting or sent, and every reporter's address confirmation no submission has used since then.
Finished deliveries of every project go after 30 days anyway (`prune_old_deliveries`).

The deletion runs in batches, each its own short transaction, so a project with millions of old rows never
holds one huge transaction (nor its locks) open. Each project carries `retention_due_at`, its lease: a process
claims the due projects with one UPDATE that moves the lease an interval ahead only where it is still due, so
across every worker and machine one process runs a project's retention at a time (on PostgreSQL a second
UPDATE waits on the row lock and then finds the row no longer due; on SQLite writers take turns). A process
that dies midway leaves the rest to the next interval; what it deleted stays deleted, with its counters."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.models import (
    ContactMessage,
    FeedbackItem,
    Project,
    Rating,
    ReporterAddress,
    SurveyLink,
    SurveyResponse,
)
from app.db.rating_partitions import drop_expired_months
from app.db.transactions import unit_of_work
from app.ideas.forgetting import forget_before
from app.ingest import delete_ratings
from app.notifications.events import forget_news_about
from app.services.feedback_items import delete_feedback
from app.surveys.forgetting import forget_responses
from app.timestamps import utc_now
from app.webhooks.forgetting import (
    forget_project_deliveries_before,
    forget_replaced_secrets,
    prune_deliveries,
)

logger = logging.getLogger("hearken.retention")

BATCH_ROWS = 1000
"""Rows deleted per transaction."""
RUN_EVERY = timedelta(hours=1)
"""How often each project's retention runs."""


@dataclass(frozen=True)
class Removed:
    project_id: UUID
    feedback: int
    ratings: int
    contact_messages: int
    webhook_deliveries: int = 0
    survey_responses: int = 0
    ideas: int = 0


async def claim_due_projects(
    session_maker: async_sessionmaker[AsyncSession], now: datetime
) -> list[tuple[UUID, int]]:
    """(project id, retention days) of every project whose retention is due, claimed by this process
    until the next interval."""
    async with unit_of_work(session_maker) as session:
        claimed = await session.execute(
            update(Project)
            .where(
                Project.retention_days.is_not(None),
                or_(Project.retention_due_at.is_(None), Project.retention_due_at <= now),
            )
            .values(retention_due_at=now + RUN_EVERY)
            .returning(Project.id, Project.retention_days)
            .execution_options(synchronize_session=False)
        )
        rows = [(project_id, int(days)) for project_id, days in claimed.tuples()]
    return rows


async def apply_retention(
    session_maker: async_sessionmaker[AsyncSession],
    project_id: UUID,
    days: int,
    now: datetime,
    *,
    batch: int = BATCH_ROWS,
) -> Removed:
    """Delete the project's items created before `now - days`, `batch` rows per transaction."""
    cutoff = now - timedelta(days=days)

    async def feedback(session: AsyncSession) -> int:
        where = [FeedbackItem.project_id == project_id, FeedbackItem.created_at < cutoff]
        return await delete_feedback(session, where, limit=batch)

    async def ratings(session: AsyncSession) -> int:
        return await delete_ratings(
            session, [Rating.project_id == project_id, Rating.created_at < cutoff], limit=batch
        )

    async def messages(session: AsyncSession) -> int:
        oldest = (
            select(ContactMessage.id)
            .where(ContactMessage.project_id == project_id, ContactMessage.created_at < cutoff)
            .order_by(ContactMessage.created_at, ContactMessage.id)
            .limit(batch)
        )
        ids = list(await session.scalars(oldest))
        await forget_news_about(session, ids)
        result = await session.execute(delete(ContactMessage).where(ContactMessage.id.in_(ids)))
        return int(result.rowcount)  # type: ignore[attr-defined]

    async def responses(session: AsyncSession) -> int:
        oldest = (
            select(SurveyResponse.id)
            .where(SurveyResponse.project_id == project_id, SurveyResponse.created_at < cutoff)
            .order_by(SurveyResponse.created_at, SurveyResponse.id)
            .limit(batch)
        )
        return await forget_responses(session, [SurveyResponse.id.in_(list(await session.scalars(oldest)))])

    async def links(session: AsyncSession) -> int:
        oldest = (
            select(SurveyLink.id)
            .where(SurveyLink.project_id == project_id, SurveyLink.created_at < cutoff)
            .limit(batch)
        )
        result = await session.execute(delete(SurveyLink).where(SurveyLink.id.in_(oldest)))
        return int(result.rowcount)  # type: ignore[attr-defined]

    async def ideas(session: AsyncSession) -> int:
        return await forget_before(session, project_id, cutoff, batch)

    await _in_batches(session_maker, links, batch)  # a link older than the cutoff has expired anyway
    async with unit_of_work(session_maker) as session:
        org_id = await session.scalar(select(Project.org_id).where(Project.id == project_id))
        await session.execute(
            delete(ReporterAddress).where(
                ReporterAddress.project_id == project_id, ReporterAddress.updated_at < cutoff
            )
        )
        deliveries = (
            0
            if org_id is None
            else await forget_project_deliveries_before(session, org_id, project_id, cutoff)
        )
    return Removed(
        project_id=project_id,
        feedback=await _in_batches(session_maker, feedback, batch),
        ratings=await _in_batches(session_maker, ratings, batch),
        contact_messages=await _in_batches(session_maker, messages, batch),
        webhook_deliveries=deliveries,
        survey_responses=await _in_batches(session_maker, responses, batch),
        ideas=await _in_batches(session_maker, ideas, batch),
    )


async def _in_batches(
    session_maker: async_sessionmaker[AsyncSession],
    step: Callable[[AsyncSession], Awaitable[int]],
    batch: int,
) -> int:
    """Run `step` in one transaction after another until it removes less than a batch: each batch is
    committed on its own, so a large purge holds its row locks briefly and never rolls back all of its
    work."""
    total = 0
    while True:
        async with unit_of_work(session_maker) as session:
            removed = await step(session)
        total += removed
        if removed < batch:
            return total


async def prune_old_deliveries(
    session_maker: async_sessionmaker[AsyncSession], *, now: datetime | None = None, batch: int = BATCH_ROWS
) -> int:
    """Delete every finished webhook delivery older than KEEP_DELIVERIES, with its attempts, a batch per
    transaction; how many went."""
    moment = now or utc_now()

    async def step(session: AsyncSession) -> int:
        return await prune_deliveries(session, moment, limit=batch)

    return await _in_batches(session_maker, step, batch)


async def forget_ended_secrets(
    session_maker: async_sessionmaker[AsyncSession], *, now: datetime | None = None
) -> int:
    """Drop every webhook secret replaced by a rotation whose overlap has ended, in one transaction."""
    async with unit_of_work(session_maker) as session:
        return await forget_replaced_secrets(session, now or utc_now())


async def run_due_retention(
    session_maker: async_sessionmaker[AsyncSession], *, now: datetime | None = None, batch: int = BATCH_ROWS
) -> list[Removed]:
    """Claim the projects whose retention is due and apply it to each: on PostgreSQL, first drop the
    ratings' months that every project in them has outlived (no row by row deletion, no counter update
    per rating), then delete what is left in batches."""
    now = now or utc_now()
    claimed = await claim_due_projects(session_maker, now)
    if claimed:
        engine: AsyncEngine = session_maker.kw["bind"]
        for dropped in await drop_expired_months(engine, now):
            logger.info(
                "dropped the ratings partition %s (%s ratings, all past their project's retention)",
                dropped.name,
                dropped.ratings,
            )
    return [
        await apply_retention(session_maker, project_id, days, now, batch=batch)
        for project_id, days in claimed
    ]
