"""negative_spike: negative answers (helpful "no", stars <= 2 of 5 or the same share of another scale,
NPS <= 6) in the last hour, and in the last three hours, beyond what the project's negative share of the
28 days before predicts for that many answers. Conditioning on the answers that came in makes the test
immune to daily and weekly swings of traffic.

An hour's counts are the difference of two readings of the running totals (`rating_totals`), kept on the
project's alert watch at each check; the baseline share reads the day counters. Neither counts ratings."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.finding import SETTLED_P, Finding
from app.alerts.significance import binomial_at_least
from app.db.models import ALL_PATHS, FeedbackItem, RatingCounter, RatingTotal, RatingType
from app.schemas.alerts import ItemsRule

WINDOWS = (timedelta(hours=1), timedelta(hours=3))
"""Each window is tested at half the rule's threshold (Bonferroni): a short one for sudden spikes, a
longer one for steady excess that one hour is too short to show."""
BASELINE_DAYS = 28
KEEP_READINGS = timedelta(days=2)
READING_EVERY = timedelta(minutes=30)
"""A reading is kept at most this often (checks asked for by hand in between add none)."""
MIN_BASELINE_ANSWERS = 100
CHART_HOURS = 24


def is_negative(rating_type: str, scale: int, value: int) -> bool:
    if rating_type == RatingType.HELPFUL.value:
        return value == 0
    if rating_type == RatingType.STAR.value:
        return value <= max(1, round(2 * (scale or 5) / 5))
    return value <= 6


def _tally(rows: Iterable[tuple[str, int, int, int]]) -> tuple[int, int]:
    negative = total = 0
    for rating_type, scale, value, count in rows:
        total += int(count)
        negative += int(count) if is_negative(rating_type, scale, value) else 0
    return negative, total


async def running_totals(session: AsyncSession, project_id: UUID) -> tuple[int, int]:
    """The project's negative answers and answers so far."""
    rows = await session.execute(
        select(RatingTotal.rating_type, RatingTotal.scale, RatingTotal.value, func.sum(RatingTotal.count))
        .where(RatingTotal.project_id == project_id, RatingTotal.path == ALL_PATHS)
        .group_by(RatingTotal.rating_type, RatingTotal.scale, RatingTotal.value)
    )
    return _tally(rows.tuples())


async def baseline_share(session: AsyncSession, project_id: UUID, now: datetime) -> tuple[float, int]:
    """The negative share of the 28 whole days before today, and how many answers it rests on."""
    today = now.date()
    rows = await session.execute(
        select(
            RatingCounter.rating_type, RatingCounter.scale, RatingCounter.value, func.sum(RatingCounter.count)
        )
        .where(
            RatingCounter.project_id == project_id,
            RatingCounter.path == ALL_PATHS,
            RatingCounter.day >= today - timedelta(days=BASELINE_DAYS),
            RatingCounter.day < today,
        )
        .group_by(RatingCounter.rating_type, RatingCounter.scale, RatingCounter.value)
    )
    negative, total = _tally(rows.tuples())
    return (negative / total if total else 0.0), total


def with_reading(readings: list[list[Any]], now: datetime, negative: int, total: int) -> list[list[Any]]:
    """The readings with this one added (when the last is old enough) and those past use dropped."""
    kept = [r for r in readings if datetime.fromisoformat(r[0]) >= now - KEEP_READINGS]
    if not kept or datetime.fromisoformat(kept[-1][0]) <= now - READING_EVERY:
        kept.append([now.isoformat(), negative, total])
    return kept


def _since(readings: list[list[Any]], moment: datetime) -> tuple[int, int] | None:
    """The latest reading at or before `moment`; None when the readings do not reach back that far."""
    found = None
    for at, negative, total in readings:
        if datetime.fromisoformat(at) <= moment:
            found = (int(negative), int(total))
    return found


async def negative_spike(
    session: AsyncSession,
    project_id: UUID,
    now: datetime,
    readings: list[list[Any]],
    current: tuple[int, int],
    rule: ItemsRule,
) -> list[Finding]:
    share, base_total = await baseline_share(session, project_id, now)
    if base_total < MIN_BASELINE_ANSWERS:
        return []
    share = min(max(share, 0.5 / base_total), 0.999)
    tests = []
    for window in WINDOWS:
        earlier = _since(readings, now - window)
        if earlier is not None:
            negative, total = max(0, current[0] - earlier[0]), max(0, current[1] - earlier[1])
            p = min(1.0, len(WINDOWS) * binomial_at_least(negative, total, share))
            tests.append((negative < rule.min_items, p, negative, total))
    if not tests:
        return []
    best = min(tests)  # the strongest window among those with enough items, if any has
    if best[1] >= SETTLED_P:
        return []
    _, p, negative, total = best
    hours = _hourly(readings, now, current)
    return [
        Finding(
            kind="negative_spike",
            subject={},
            title=f"Negative answers rose to {negative} of {total} ({round(100 * negative / total)} %), "
            f"against {round(100 * share)} % over the last {BASELINE_DAYS} days",
            before=share,
            after=negative / total if total else 0.0,
            p_value=p,
            firing=p < rule.p_value and negative >= rule.min_items,
            series=hours,
            unit="count",
            examples_where=[FeedbackItem.created_at >= now - WINDOWS[-1]],
        )
    ]


def _hourly(
    readings: list[list[Any]], now: datetime, current: tuple[int, int]
) -> list[tuple[str, float, int]]:
    """Negative answers per hour over the last day, from the readings."""
    series = []
    for back in range(CHART_HOURS, 0, -1):
        start, end = now - timedelta(hours=back), now - timedelta(hours=back - 1)
        a, b = _since(readings, start), _since(readings, end) if back > 1 else current
        if a is None or b is None:
            series.append((start.strftime("%H:00"), 0.0, 0))
            continue
        negative = max(0, b[0] - a[0])
        series.append((start.strftime("%H:00"), float(negative), max(0, b[1] - a[1])))
    return series
