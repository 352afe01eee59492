"""rating_drop: a page's helpful share over the last two days (today so far and yesterday) against its 28
days before, and the newest version's helpful share or mean star or NPS answer against the version before
it. Both read the day counters and the totals, never the ratings."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.finding import SETTLED_P, Finding, percent
from app.alerts.significance import mean_fell, moments, share_fell
from app.db.models import ALL_PATHS, NO_VERSION, FeedbackItem, RatingCounter, RatingTotal, RatingType
from app.schemas.alerts import RatingDropRule

RECENT_DAYS = 2
BASELINE_DAYS = 28
CHART_DAYS = 14
VERSIONS_CHARTED = 6
LOOKS_PER_DAY = 24
"""The hourly checks of a day look at nearly the same answers again and again: a drop fires when its
p-value stays below the rule's threshold shared among those looks and among the pages tested (Bonferroni),
so that chance alone opens about as few alerts as one look a day at one page would."""


async def page_drops(
    session: AsyncSession, project_id: UUID, now: datetime, rule: RatingDropRule
) -> list[Finding]:
    today = now.date()
    recent_start = today - timedelta(days=RECENT_DAYS - 1)
    baseline_start = recent_start - timedelta(days=BASELINE_DAYS)
    rows = await session.execute(
        select(RatingCounter.path, RatingCounter.day, RatingCounter.value, func.sum(RatingCounter.count))
        .where(
            RatingCounter.project_id == project_id,
            RatingCounter.rating_type == RatingType.HELPFUL.value,
            RatingCounter.path != ALL_PATHS,
            RatingCounter.day >= baseline_start,
            RatingCounter.day <= today,
        )
        .group_by(RatingCounter.path, RatingCounter.day, RatingCounter.value)
    )
    days: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for path, day, value, count in rows.tuples():
        tally = days[path][day]
        tally[0] += int(count) if value else 0
        tally[1] += int(count)
    findings = []
    tested = max(1, len(days))
    for path, by_day in days.items():
        before = [sum(t[i] for d, t in by_day.items() if d < recent_start) for i in (0, 1)]
        after = [sum(t[i] for d, t in by_day.items() if d >= recent_start) for i in (0, 1)]
        if before[1] == 0 or after[1] == 0:
            continue
        p = share_fell(before[0], before[1], after[0], after[1])
        if p >= SETTLED_P:
            continue
        share_before, share_after = before[0] / before[1], after[0] / after[1]
        series = []
        for offset in range(CHART_DAYS - 1, -1, -1):
            day = today - timedelta(days=offset)
            yes, total = by_day.get(day, (0, 0))
            series.append((day.strftime("%b %d"), yes / total if total else 0.0, total))
        findings.append(
            Finding(
                kind="rating_drop",
                subject={"path": path},
                title=f"Helpful on {path} fell from {percent(share_before)} to {percent(share_after)}",
                before=share_before,
                after=share_after,
                p_value=p,
                firing=p * tested * LOOKS_PER_DAY < rule.p_value
                and min(before[1], after[1]) >= rule.min_answers,
                series=series,
                unit="share",
                examples_where=[FeedbackItem.path == path],
            )
        )
    return findings


async def version_drops(session: AsyncSession, project_id: UUID, rule: RatingDropRule) -> list[Finding]:
    seen = await session.execute(
        select(RatingCounter.version, func.min(RatingCounter.day))
        .where(
            RatingCounter.project_id == project_id,
            RatingCounter.path == ALL_PATHS,
            RatingCounter.version != NO_VERSION,
        )
        .group_by(RatingCounter.version)
    )
    first_seen = {version: day for version, day in seen.tuples()}
    if len(first_seen) < 2:
        return []
    order = sorted(first_seen, key=lambda version: (first_seen[version], version))
    charted = order[-VERSIONS_CHARTED:]
    rows = await session.execute(
        select(
            RatingTotal.version,
            RatingTotal.rating_type,
            RatingTotal.scale,
            RatingTotal.value,
            func.sum(RatingTotal.count),
        )
        .where(
            RatingTotal.project_id == project_id,
            RatingTotal.path == ALL_PATHS,
            RatingTotal.version.in_(charted),
        )
        .group_by(RatingTotal.version, RatingTotal.rating_type, RatingTotal.scale, RatingTotal.value)
    )
    answers: dict[tuple[str, int], dict[str, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    for version, rating_type, scale, value, count in rows.tuples():
        answers[(rating_type, scale)][version][value] = int(count)
    newest, previous = order[-1], order[-2]
    findings = []
    for (rating_type, scale), by_version in answers.items():
        series = []
        for version in charted:
            mean, _, n = moments(by_version.get(version, {}))
            series.append((version, mean, n))
        sides = (by_version.get(previous, {}), by_version.get(newest, {}))
        finding = _version_finding(rating_type, scale, (previous, newest), sides, series, rule)
        if finding is not None:
            findings.append(finding)
    return findings


def _version_finding(
    rating_type: str,
    scale: int,
    versions: tuple[str, str],
    sides: tuple[dict[int, int], dict[int, int]],
    series: list[tuple[str, float, int]],
    rule: RatingDropRule,
) -> Finding | None:
    """The newest version against the one before, for one rating type and scale."""
    (previous, newest), (before, after) = versions, sides
    mean_before, _, n_before = moments(before)
    mean_after, _, n_after = moments(after)
    if n_before == 0 or n_after == 0:
        return None
    if rating_type == RatingType.HELPFUL.value:
        p = share_fell(before.get(1, 0), n_before, after.get(1, 0), n_after)
        what = f"Helpful of version {newest} fell from {percent(mean_before)} to {percent(mean_after)}"
        unit = "share"
    else:
        p = mean_fell(before, after)
        name = f"{scale}-star rating" if rating_type == RatingType.STAR.value else "NPS answer"
        what = f"Mean {name} of version {newest} fell from {mean_before:.2f} to {mean_after:.2f}"
        unit = "mean"
    if p >= SETTLED_P:
        return None
    return Finding(
        kind="rating_drop",
        subject={"version": newest, "type": rating_type, "previous_version": previous},
        title=f"{what} (version {previous})",
        before=mean_before,
        after=mean_after,
        p_value=p,
        firing=p * LOOKS_PER_DAY < rule.p_value and min(n_before, n_after) >= rule.min_answers,
        series=series,
        unit=unit,
        examples_where=[FeedbackItem.version == newest],
    )
