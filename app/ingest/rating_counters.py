"""Keeps rating_counters and rating_totals exact: applied in the same transaction as the rating rows
they count. Every writer changes the day counters first and the totals second, each in key order, so
concurrent transactions take row locks in one order and cannot deadlock."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Protocol
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.counter_upsert import add_to_counters
from app.db.models import ALL_PATHS, RatingCounter, RatingTotal

CounterKey = tuple[UUID, str, str, date, int, int]
"""(project_id, rating_type, path, day, scale, value)"""
TotalKey = tuple[UUID, str, str, int, int]
"""(project_id, rating_type, path, scale, value): a counter key without the day"""


class CountedRating(Protocol):
    """What the counters need of a rating: a stored Rating or a NewRating a writer has just stored."""

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


def count_deltas(ratings: Iterable[CountedRating], sign: int) -> Counter[CounterKey]:
    """What each counter gains (sign=1) or loses (sign=-1) with these ratings."""
    deltas: Counter[CounterKey] = Counter()
    for rating in ratings:
        for key in counter_keys(rating):
            deltas[key] += sign
    return deltas


def total_deltas(deltas: Mapping[CounterKey, int]) -> Counter[TotalKey]:
    totals: Counter[TotalKey] = Counter()
    for (project_id, rating_type, path, _, scale, value), n in deltas.items():
        totals[project_id, rating_type, path, scale, value] += n
    return totals


async def apply_counts(session: AsyncSession, ratings: Iterable[CountedRating], sign: int) -> None:
    """Add (sign=1) or remove (sign=-1) these ratings from the counters and the totals."""
    deltas = count_deltas(ratings, sign)
    await add_to_counters(session, RatingCounter.__table__, deltas)
    await add_to_counters(session, RatingTotal.__table__, total_deltas(deltas))
