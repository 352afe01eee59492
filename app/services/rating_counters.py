"""Keeps rating_counters exact: applied in the same transaction as the rating rows they count."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date, datetime
from functools import cache
from typing import Any, Protocol
from uuid import UUID

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ALL_PATHS, RatingCounter

CounterKey = tuple[UUID, str, str, date, int, int]
"""(project_id, rating_type, path, day, scale, value)"""
_COLUMNS = ("project_id", "rating_type", "path", "day", "scale", "value", "count")


class CountedRating(Protocol):
    """What the counters need of a rating: a stored Rating or a row add_ratings has just written."""

    @property
    def id(self) -> UUID: ...
    @property
    def project_id(self) -> UUID: ...
    @property
    def rating_type(self) -> str: ...
    @property
    def value(self) -> int: ...
    @property
    def max_stars(self) -> int | None: ...
    @property
    def path(self) -> str | None: ...
    @property
    def created_at(self) -> datetime: ...


def counter_keys(rating: CountedRating) -> tuple[CounterKey, ...]:
    """Each rating is counted under ALL_PATHS and, when it has one, under its own path."""
    day = rating.created_at.date()
    scale = rating.max_stars or 0
    base = (rating.project_id, rating.rating_type)
    keys: tuple[CounterKey, ...] = ((*base, ALL_PATHS, day, scale, rating.value),)
    if rating.path:
        keys += ((*base, rating.path, day, scale, rating.value),)
    return keys


async def apply_counts(session: AsyncSession, ratings: Iterable[CountedRating], sign: int) -> None:
    """Add (sign=1) or remove (sign=-1) these ratings from the counters, in sorted key order so that
    concurrent transactions take row locks in the same order and cannot deadlock.

    One cached single-row upsert runs as an executemany: compiled once, not once per batch shape.
    """
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
        await session.execute(_upsert(session.get_bind().dialect.name), rows)


@cache
def _upsert(dialect: str) -> Any:
    table = RatingCounter.__table__
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(table)
    return statement.on_conflict_do_update(
        index_elements=["project_id", "rating_type", "path", "day", "scale", "value"],
        set_={"count": table.c.count + statement.excluded.count},
    )
