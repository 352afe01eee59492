"""Keeps feedback_counters exact: applied in the same transaction as the item it counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackCounter

CounterKey = tuple[UUID, bool, str, str, str]
"""(project_id, archived, status, type, source)"""
_COLUMNS = ("project_id", "archived", "status", "type", "source", "count")


async def apply_feedback_counts(session: AsyncSession, deltas: Iterable[tuple[CounterKey, int]]) -> None:
    """Add each delta to its counter, in sorted key order (no deadlocks between transactions)."""
    totals: Counter[CounterKey] = Counter()
    for key, delta in deltas:
        totals[key] += delta
    rows = [
        dict(zip(_COLUMNS, (*key, n), strict=True))
        for key, n in sorted(totals.items(), key=lambda item: (str(item[0][0]), *item[0][1:]))
        if n
    ]
    if rows:
        await session.execute(_upsert(session.get_bind().dialect.name), rows)


async def counted_feedback(session: AsyncSession, where: Iterable[ColumnElement[bool]]) -> int:
    """The sum of the counters matching these conditions on FeedbackCounter columns."""
    total = await session.scalar(select(func.coalesce(func.sum(FeedbackCounter.count), 0)).where(*where))
    return int(total or 0)


@cache
def _upsert(dialect: str) -> Any:
    table = FeedbackCounter.__table__
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(table)
    return statement.on_conflict_do_update(
        index_elements=["project_id", "archived", "status", "type", "source"],
        set_={"count": table.c.count + statement.excluded.count},
    )
