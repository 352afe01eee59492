"""Keeps feedback_counters exact: applied in the same transaction as the item it counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from uuid import UUID

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.counter_upsert import add_to_counters
from app.db.models import FeedbackCounter

CounterKey = tuple[UUID, bool, str, str, str]
"""(project_id, archived, status, type, source)"""


async def apply_feedback_counts(session: AsyncSession, deltas: Iterable[tuple[CounterKey, int]]) -> None:
    """Add each delta to its counter."""
    totals: Counter[CounterKey] = Counter()
    for key, delta in deltas:
        totals[key] += delta
    await add_to_counters(session, FeedbackCounter.__table__, totals)


async def counted_feedback(session: AsyncSession, where: Iterable[ColumnElement[bool]]) -> int:
    """The sum of the counters matching these conditions on FeedbackCounter columns."""
    total = await session.scalar(select(func.coalesce(func.sum(FeedbackCounter.count), 0)).where(*where))
    return int(total or 0)
