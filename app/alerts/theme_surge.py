"""theme_surge: a theme's items against what its baseline predicts (Poisson tests) over two windows: the
last 24 hours against its items per day over the 28 days before, and the last 3 hours against twice its
mean rate for 3 hours (a day's busiest hours carry about twice its mean), so that a sudden surge shows
within an hour or two instead of needing a day's worth of items. Each window is tested at half the rule's
threshold (Bonferroni), and the window that fires must hold the rule's minimum of items.

The baseline leaves out the theme's own recent episodes (from a day before each of its alerts opened to
the last time it was outside its baseline): a surge is not the normal that the theme's next surge is
measured against. At least 14 days of baseline are kept; a theme that surged most of the month is measured
against all of it. A theme without items before counts as a rate of one item in its baseline, so a new
theme that reaches the rule's minimum within a day surges too. Themes are read through the insights
service, as the API and the console read them. The title names the theme in its few words; its most
central message (`label`) stays in the subject, for the reader who wants an example at once."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.finding import SETTLED_P, Finding
from app.alerts.significance import poisson_at_least
from app.db.models import Alert
from app.schemas.alerts import ItemsRule
from app.services.insights import Insights

DAY = timedelta(days=1)
BASELINE_DAYS = 28
SHORT = timedelta(hours=3)
BUSY = 2.0
"""The short window expects this many times the theme's mean rate: a day's traffic swings, and a surge
must stand out against the busiest hours, not the mean."""
WINDOWS = 2
MIN_BASELINE = timedelta(days=14)

Interval = tuple[datetime, datetime]


async def theme_surges(
    session: AsyncSession, insights: Insights, project_id: UUID, now: datetime, rule: ItemsRule
) -> list[Finding]:
    recent = await insights.themes(now - DAY, now)
    if not recent.themes:
        return []
    start, end = now - DAY * (BASELINE_DAYS + 1), now - DAY
    baseline = await insights.theme_counts(start, end)
    short = await insights.theme_counts(now - SHORT, now)
    episodes = await _episodes(session, project_id, start, end)
    findings = []
    for summary in recent.themes:
        theme_id = summary.theme.id
        before, span = await _baseline(
            insights, theme_id, baseline.get(theme_id, 0), episodes.get(str(theme_id), []), start, end
        )
        days = span / DAY
        per_day = max(before, 1) / days
        in_short = short.get(theme_id, 0)
        tests = [
            (summary.count < rule.min_items, _p(summary.count, per_day), summary.count, "24 hours"),
            (in_short < rule.min_items, _p(in_short, per_day * BUSY * (SHORT / DAY)), in_short, "3 hours"),
        ]
        not_enough, p, items, window = min(tests)  # the strongest window with enough items, if any has
        if p >= SETTLED_P:
            continue
        theme = summary.theme
        heading = theme.name or f"“{theme.label}”"  # a theme stored before themes had names: its message
        findings.append(
            Finding(
                kind="theme_surge",
                subject={"theme_id": str(theme_id), "name": theme.name, "label": theme.label},
                title=f"{heading}: {items} items in {window}, against {_usual(before, days)}",
                before=round(before / days, 3),
                after=float(summary.count),
                p_value=p,
                firing=p < rule.p_value and not not_enough,
                series=[
                    (f"{round(days)}-day mean", before / days, before),
                    ("Last 24 h", float(summary.count), summary.count),
                ],
                unit="count",
                example_ids=[str(i) for i in summary.sample_ids],
            )
        )
    return findings


def _usual(before: int, days: float) -> str:
    if before == 0:
        return f"none in the {round(days)} days before"
    return f"{before / days:.1f} a day before"


def _p(items: int, expected: float) -> float:
    return min(1.0, WINDOWS * poisson_at_least(items, expected))


async def _episodes(
    session: AsyncSession, project_id: UUID, start: datetime, end: datetime
) -> dict[str, list[Interval]]:
    """Each theme's recent surge episodes within [start, end): from a day before its alert opened to the
    last time it was outside its baseline, merged where they touch."""
    rows = await session.execute(
        select(Alert.subject, Alert.opened_at, Alert.unsettled_at).where(
            Alert.project_id == project_id,
            Alert.kind == "theme_surge",
            Alert.unsettled_at >= start,
            Alert.opened_at < end + DAY,
        )
    )
    found: dict[str, list[Interval]] = {}
    for subject, opened_at, unsettled_at in sorted(rows.tuples(), key=lambda row: row[1]):
        a, b = max(opened_at - DAY, start), min(unsettled_at, end)
        if a >= b:
            continue
        intervals = found.setdefault(str(subject.get("theme_id")), [])
        if intervals and a <= intervals[-1][1]:
            intervals[-1] = (intervals[-1][0], max(b, intervals[-1][1]))
        else:
            intervals.append((a, b))
    return found


async def _baseline(
    insights: Insights,
    theme_id: UUID,
    items: int,
    episodes: list[Interval],
    start: datetime,
    end: datetime,
) -> tuple[int, timedelta]:
    """The theme's items in its baseline and the time they span, its own episodes left out."""
    left_out = sum((b - a for a, b in episodes), timedelta())
    if not episodes or end - start - left_out < MIN_BASELINE:
        return items, end - start
    for a, b in episodes:
        items -= (await insights.theme_counts(a, b)).get(theme_id, 0)
    return max(items, 0), end - start - left_out
