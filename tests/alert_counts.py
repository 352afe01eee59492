"""Answers counted straight into the day counters and totals at a chosen time, as the rating writers count
them (the alert checks read nothing else), so alert tests and the bench can lay out weeks in a moment."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.alerts.finding import subject_key
from app.db.counter_upsert import add_to_counters
from app.db.models import ALL_PATHS, NO_REASON, NO_VERSION, Alert, RatingCounter, RatingTotal
from app.ingest.rating_counters import CounterKey, total_deltas
from app.timestamps import utc_now


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


def stored_alert(project_id: UUID, path: str = "/docs/install") -> Alert:
    """An open rating_drop alert of a project, as a check would have opened it."""
    now = utc_now()
    subject = {"path": path}
    return Alert(
        id=uuid7(),
        project_id=project_id,
        kind="rating_drop",
        subject_key=subject_key("rating_drop", subject),
        subject=subject,
        status="open",
        title=f"Helpful on {path} fell from 80 % to 30 %",
        before=0.8,
        after=0.3,
        p_value=1e-6,
        examples=[],
        evidence={"unit": "share", "series": []},
        opened_at=now,
        unsettled_at=now,
        created_at=now,
        updated_at=now,
    )
