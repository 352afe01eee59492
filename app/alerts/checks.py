"""The checks of one project, as the periodic loop and `POST .../alerts/check` run them, and the loop's
claim: each project's alert watch carries a lease, so however many processes look, one checks a project
at a time, about once an hour. A check reads counters (a few rows per page, version and day), never
rating rows, so its cost does not grow with the ratings."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

import msgspec
from sqlalchemy import or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.alerts.episodes import apply_findings, send_events
from app.alerts.finding import Finding
from app.alerts.negative_spike import negative_spike, running_totals, with_reading
from app.alerts.rating_drop import page_drops, version_drops
from app.alerts.theme_surge import theme_surges
from app.db.models import AlertWatch, Project
from app.db.transactions import unit_of_work
from app.schemas.alerts import AlertRules
from app.services.insights import Insights
from app.timestamps import utc_now
from tenants.scope import Access, OrgScope

logger = logging.getLogger("hearken.alerts")

LOOK_EVERY_SECONDS = 60.0
CHECK_EVERY = timedelta(hours=1)
LEASE = timedelta(minutes=5)
MAX_PER_LOOK = 200


def rules_of(watch: AlertWatch | None) -> AlertRules:
    if watch is None or watch.rules is None:
        return AlertRules()
    return msgspec.convert(watch.rules, AlertRules)


async def watch_of(session: AsyncSession, project_id: UUID) -> AlertWatch:
    """The project's watch, made on first use."""
    watch = await session.scalar(select(AlertWatch).where(AlertWatch.project_id == project_id))
    if watch is not None:
        return watch
    try:
        async with session.begin_nested():
            watch = AlertWatch(id=uuid7(), project_id=project_id, readings=[])
            session.add(watch)
    except IntegrityError:  # another process made it meanwhile
        watch = await session.scalar(select(AlertWatch).where(AlertWatch.project_id == project_id))
    assert watch is not None
    return watch


async def check_project(session: AsyncSession, project: Project, now: datetime) -> None:
    """Run the project's enabled checks at `now`, in the caller's transaction."""
    watch = await watch_of(session, project.id)
    rules = rules_of(watch)
    findings: list[Finding] = []
    kinds = []
    current = await running_totals(session, project.id)
    if rules.negative_spike.enabled:
        kinds.append("negative_spike")
        findings += await negative_spike(
            session, project.id, now, watch.readings, current, rules.negative_spike
        )
    watch.readings = with_reading(watch.readings, now, *current)
    if rules.rating_drop.enabled:
        kinds.append("rating_drop")
        findings += await page_drops(session, project.id, now, rules.rating_drop)
        findings += await version_drops(session, project.id, rules.rating_drop)
    if rules.theme_surge.enabled:
        kinds.append("theme_surge")
        insights = Insights(session, OrgScope(project.org_id, "alerts", Access.READ), project)
        findings += await theme_surges(session, insights, project.id, now, rules.theme_surge)
    events = await apply_findings(session, project, kinds, findings, now)
    await send_events(session, project, events)
    watch.checked_at = now


def _due(now: datetime) -> list:  # type: ignore[type-arg]
    return [
        or_(AlertWatch.checked_at.is_(None), AlertWatch.checked_at <= now - CHECK_EVERY),
        or_(AlertWatch.locked_until.is_(None), AlertWatch.locked_until < now),
    ]


async def _claim(session_maker: async_sessionmaker[AsyncSession], now: datetime) -> UUID | None:
    """Lease one due watch: one statement that writes first, so on SQLite it waits for another process's
    write instead of failing, and on PostgreSQL the row's conditions are checked again under its lock."""
    due = select(AlertWatch.id).where(*_due(now)).limit(1).scalar_subquery()
    async with unit_of_work(session_maker) as session:
        claimed = await session.execute(
            update(AlertWatch)
            .where(AlertWatch.id == due, *_due(now))
            .values(locked_until=now + LEASE)
            .returning(AlertWatch.id)
            .execution_options(synchronize_session=False)
        )
        return claimed.scalar_one_or_none()


async def _watch_new_projects(session_maker: async_sessionmaker[AsyncSession]) -> None:
    """A watch for each project that has none yet, in one statement that writes first (ON CONFLICT DO
    NOTHING: another process making the same watches meanwhile is no error, and on SQLite it waits)."""
    async with session_maker() as session:
        unwatched = list(
            await session.scalars(
                select(Project.id)
                .outerjoin(AlertWatch, AlertWatch.project_id == Project.id)
                .where(AlertWatch.id.is_(None))
            )
        )
    if not unwatched:
        return
    async with unit_of_work(session_maker) as session:
        now = utc_now()
        rows = [
            {"id": uuid7(), "project_id": project_id, "readings": [], "created_at": now, "updated_at": now}
            for project_id in unwatched
        ]
        dialect = session.bind.dialect.name
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        await session.execute(
            insert(AlertWatch).values(rows).on_conflict_do_nothing(index_elements=["project_id"])
        )


async def run_due_checks(session_maker: async_sessionmaker[AsyncSession], now: datetime) -> int:
    """Check every project whose hour has come and that no other process holds; how many were checked."""
    await _watch_new_projects(session_maker)
    checked = 0
    while checked < MAX_PER_LOOK:
        watch_id = await _claim(session_maker, now)
        if watch_id is None:
            return checked
        async with unit_of_work(session_maker) as session:
            # Writing first takes SQLite's write lock at the start (another writer waits for it) rather
            # than upgrading a read later, which fails at once when another process wrote meanwhile.
            await session.execute(
                update(AlertWatch).where(AlertWatch.id == watch_id).values(locked_until=now + LEASE)
            )
            watch = await session.get_one(AlertWatch, watch_id)
            project = await session.get_one(Project, watch.project_id)
            try:
                async with session.begin_nested():
                    await check_project(session, project, now)
            except Exception:  # one project's failure must not stop the others' checks
                logger.exception("the alert check of project %s failed", project.id)
                watch.checked_at = now
            watch.locked_until = None
        checked += 1
    return checked
