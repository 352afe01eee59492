"""Keeps rating_counters and rating_totals exact: applied in the same transaction as the rating rows
they count. Every writer changes the day counters first and the totals second, each in key order, so
concurrent transactions take row locks in one order and cannot deadlock."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any, Protocol
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.counter_upsert import add_to_counters
from app.db.models import (
    ALL_PATHS,
    NO_REASON,
    NO_VERSION,
    REASON_LENGTH,
    RatingCounter,
    RatingTotal,
    RatingType,
)

CounterKey = tuple[UUID, str, str, date, int, int, str, str]
"""(project_id, rating_type, path, day, scale, value, version, reason)"""
TotalKey = tuple[UUID, str, str, int, int, str, str]
"""(project_id, rating_type, path, scale, value, version, reason): a counter key without the day"""


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
    def version(self) -> str | None: ...
    @property
    def custom_data(self) -> dict[str, Any] | None: ...
    @property
    def created_at(self) -> datetime: ...


def counter_keys(rating: CountedRating) -> tuple[CounterKey, ...]:
    """Each rating is counted under ALL_PATHS and, when it has one, under its own path."""
    day = rating.created_at.date()
    scale = rating.max_stars or 0
    base = (rating.project_id, rating.rating_type)
    reason = rating.custom_data.get("reason") if rating.custom_data else None
    rest = (rating.version or NO_VERSION, counted_reason(rating.rating_type, reason))
    keys: tuple[CounterKey, ...] = ((*base, ALL_PATHS, day, scale, rating.value, *rest),)
    if rating.path:
        keys += ((*base, rating.path, day, scale, rating.value, *rest),)
    return keys


def counted_reason(rating_type: str, reason: object) -> str:
    """The reason a rating is counted under: a helpful rating's metadata.reason when that is a string of
    1 to REASON_LENGTH characters (what the helpful widget sends with a No); NO_REASON otherwise."""
    if (
        rating_type != RatingType.HELPFUL
        or not isinstance(reason, str)
        or not 0 < len(reason) <= REASON_LENGTH
    ):
        return NO_REASON
    return reason


def count_deltas(ratings: Iterable[CountedRating], sign: int) -> Counter[CounterKey]:
    """What each counter gains (sign=1) or loses (sign=-1) with these ratings."""
    deltas: Counter[CounterKey] = Counter()
    for rating in ratings:
        for key in counter_keys(rating):
            deltas[key] += sign
    return deltas


def total_deltas(deltas: Mapping[CounterKey, int]) -> Counter[TotalKey]:
    totals: Counter[TotalKey] = Counter()
    for (project_id, rating_type, path, _, scale, value, version, reason), n in deltas.items():
        totals[project_id, rating_type, path, scale, value, version, reason] += n
    return totals


async def apply_counts(session: AsyncSession, ratings: Iterable[CountedRating], sign: int) -> None:
    """Add (sign=1) or remove (sign=-1) these ratings from the counters and the totals."""
    deltas = count_deltas(ratings, sign)
    await add_to_counters(session, RatingCounter.__table__, deltas)
    await add_to_counters(session, RatingTotal.__table__, total_deltas(deltas))
