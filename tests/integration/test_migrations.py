"""Migrations that carry data: 0003 totals the day counters that a database already holds."""

from __future__ import annotations

import asyncio
from datetime import date

from advanced_alchemy.alembic.commands import AlembicCommands
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import ALL_PATHS, RatingCounter, RatingTotal
from tests.factories import Tenant

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
        async with session_maker() as session:
            rows = [
                {"project_id": project_id, "rating_type": "nps", "path": path, "day": day,
                 "scale": 0, "value": value, "count": count}
                for path, day, value, count in DAY_COUNTERS
            ]  # fmt: skip
            await session.execute(insert(RatingCounter.__table__), rows)
            await session.commit()
    finally:
        await asyncio.to_thread(_alembic(settings).upgrade, "head")
    async with session_maker() as session:
        totals = (
            await session.execute(
                select(RatingTotal.path, RatingTotal.value, RatingTotal.count).where(
                    RatingTotal.project_id == project_id
                )
            )
        ).tuples()
        assert sorted(totals) == [(ALL_PATHS, 3, 1), (ALL_PATHS, 9, 7), ("/a", 9, 7), ("/b", 3, 1)]
