"""Migrations that carry data: 0003 totals the day counters that a database already holds; 0008 counts
the ratings again by version and reason."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime

import sqlalchemy as sa
from advanced_alchemy.alembic.commands import AlembicCommands
from advanced_alchemy.types import GUID
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import ALL_PATHS, Rating, RatingTotal, RatingType
from app.db.transactions import unit_of_work
from app.services.rating_stats import rating_stats, version_stats
from tests.factories import Tenant

# rating_counters as 0002 and 0003 have it: before versions and reasons were counted
OLD_COUNTERS = sa.table(
    "rating_counters",
    sa.column("project_id", GUID(length=16)),
    sa.column("day", sa.Date()),
    *(sa.column(name) for name in ("rating_type", "path", "scale", "value", "count")),
)

DAY_COUNTERS = [
    (ALL_PATHS, date(2026, 5, 1), 9, 3),
    (ALL_PATHS, date(2026, 5, 2), 9, 4),
    (ALL_PATHS, date(2026, 5, 2), 3, 1),
    ("/a", date(2026, 5, 1), 9, 3),
    ("/a", date(2026, 5, 2), 9, 4),
    ("/b", date(2026, 5, 2), 3, 1),
]


def _alembic(settings: Settings) -> AlembicCommands:
    return AlembicCommands(sqlalchemy_config=build_db_config(settings))


async def test_rating_totals_are_summed_from_existing_day_counters(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    project_id = tenant.project.id
    await asyncio.to_thread(_alembic(settings).downgrade, "0002")
    try:
        async with unit_of_work(session_maker) as session:
            rows = [
                {"project_id": project_id, "rating_type": "nps", "path": path, "day": day,
                 "scale": 0, "value": value, "count": count}
                for path, day, value, count in DAY_COUNTERS
            ]  # fmt: skip
            await session.execute(insert(OLD_COUNTERS), rows)
            await session.commit()
        await asyncio.to_thread(_alembic(settings).upgrade, "0003")
        async with unit_of_work(session_maker) as session:
            totals = (
                await session.execute(
                    select(RatingTotal.path, RatingTotal.value, RatingTotal.count).where(
                        RatingTotal.project_id == project_id
                    )
                )
            ).tuples()
            assert sorted(totals) == [(ALL_PATHS, 3, 1), (ALL_PATHS, 9, 7), ("/a", 9, 7), ("/b", 3, 1)]
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")


async def test_counters_are_rebuilt_by_version_and_reason_from_the_ratings(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    project = tenant.project
    await asyncio.to_thread(_alembic(settings).downgrade, "0003")
    ratings = [  # (value, version, metadata, archived, day)
        (0, "2.4", {"reason": "inaccurate"}, False, 3),
        (0, "2.4", {"reason": "inaccurate"}, False, 4),
        (0, "2.4", {"reason": "other"}, True, 4),
        (1, "2.4", None, False, 5),
        (1, "2.3", None, False, 1),
        (0, "2.3", {"reason": 5}, False, 2),
        (1, None, None, False, 2),
    ]
    try:
        async with unit_of_work(session_maker) as session:
            for value, version, metadata, archived, day in ratings:
                moment = datetime(2026, 5, day, 15, tzinfo=UTC)
                session.add(
                    Rating(id=uuid7(), project_id=project.id, rating_type="helpful", value=value, path="/a",
                           version=version, custom_data=metadata, archived=archived, created_at=moment,
                           updated_at=moment)
                )  # fmt: skip
            await session.commit()
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
    async with unit_of_work(session_maker) as session:
        everything = await rating_stats(session, project, RatingType.HELPFUL)
        assert (everything.total, everything.reasons) == (6, {"inaccurate": 2})  # type: ignore[union-attr]
        versions = (await version_stats(session, project, RatingType.HELPFUL, "/a")).versions
        assert [(v.version, v.first_seen, v.total, v.reasons) for v in versions] == [  # type: ignore[union-attr]
            ("2.3", "2026-05-01", 2, {}),
            ("2.4", "2026-05-03", 3, {"inaccurate": 2}),
        ]
