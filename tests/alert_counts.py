"""Answers counted straight into the day counters and totals at a chosen time, as the rating writers count
them (the alert checks read nothing else), so alert tests and the bench can lay out weeks in a moment."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.counter_upsert import add_to_counters
from app.db.models import ALL_PATHS, NO_REASON, NO_VERSION, RatingCounter, RatingTotal
from app.ingest.rating_counters import CounterKey, total_deltas


async def count_answers(
    session: AsyncSession,
    project_id: UUID,
    when: datetime,
    answers: dict[tuple[str, int], int],
    *,
    path: str | None = None,
    version: str | None = None,
    scale: int = 0,
) -> None:
    """`answers` is {(rating type, value): how many} at `when`."""
    deltas: Counter[CounterKey] = Counter()
    for (rating_type, value), count in answers.items():
        if not count:
            continue
        rest = (when.date(), scale, value, version or NO_VERSION, NO_REASON)
        deltas[(project_id, rating_type, ALL_PATHS, *rest)] += count
        if path:
            deltas[(project_id, rating_type, path, *rest)] += count
    await add_to_counters(session, RatingCounter.__table__, deltas)
    await add_to_counters(session, RatingTotal.__table__, total_deltas(deltas))
