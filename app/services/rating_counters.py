"""Keeps rating_counters exact: applied in the same transaction as the rating rows they count."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date
from typing import Any
from uuid import UUID

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ALL_PATHS, Rating, RatingCounter

CounterKey = tuple[UUID, str, str, date, int, int]
"""(project_id, rating_type, path, day, scale, value)"""


def counter_keys(rating: Rating) -> tuple[CounterKey, ...]:
    """Each rating is counted under ALL_PATHS and, when it has one, under its own path."""
    day = rating.created_at.date()
    scale = rating.max_stars or 0
    base = (rating.project_id, rating.rating_type)
    keys: tuple[CounterKey, ...] = ((*base, ALL_PATHS, day, scale, rating.value),)
    if rating.path:
        keys += ((*base, rating.path, day, scale, rating.value),)
    return keys


async def apply_counts(session: AsyncSession, ratings: Iterable[Rating], sign: int) -> None:
    """Add (sign=1) or remove (sign=-1) these ratings from the counters, in sorted key order so that
    concurrent transactions take row locks in the same order and cannot deadlock."""
    deltas: Counter[CounterKey] = Counter()
    for rating in ratings:
        for key in counter_keys(rating):
            deltas[key] += sign
    rows = [
        {
            "project_id": k[0],
            "rating_type": k[1],
            "path": k[2],
            "day": k[3],
            "scale": k[4],
            "value": k[5],
            "count": n,
        }
        for k, n in sorted(deltas.items(), key=lambda item: (str(item[0][0]), *item[0][1:]))
        if n
    ]
    if rows:
        await session.execute(_upsert(session, rows))


def _upsert(session: AsyncSession, rows: list[dict[str, Any]]) -> Any:
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(RatingCounter).values(rows)
    return statement.on_conflict_do_update(
        index_elements=["project_id", "rating_type", "path", "day", "scale", "value"],
        set_={"count": RatingCounter.count + statement.excluded.count},
    )
