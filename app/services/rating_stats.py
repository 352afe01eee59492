"""Rating statistics, time series and per-version statistics, read from rating_counters (by day) and
rating_totals (all time) so their cost does not grow with the number of ratings.

Whole UTC days come from the counters. When since or until falls inside a day, that edge day is
counted from the rating rows between the bound and midnight (an index range on project, type and
created_at), so every answer is exact. No HTTP here: the API and the console both call these.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import Select, false, func, literal, select

from app.db.models import (
    ALL_PATHS,
    NO_REASON,
    NO_VERSION,
    Project,
    Rating,
    RatingCounter,
    RatingTotal,
    RatingType,
)
from app.errors import InvalidRequest
from app.ingest import DEFAULT_MAX_STARS, counted_reason
from app.schemas.rating_stats import (
    HelpfulPoint,
    HelpfulSeries,
    HelpfulStats,
    HelpfulVersion,
    HelpfulVersions,
    Interval,
    NpsCategory,
    NpsPoint,
    NpsSeries,
    NpsStats,
    NpsVersion,
    NpsVersions,
    RatingSeries,
    RatingStats,
    RatingVersions,
    StarPoint,
    StarSeries,
    StarStats,
    StarVersion,
    StarVersions,
)
from app.services.projects import ProjectScoped
from app.services.time_bounds import start_of_day
from app.timestamps import iso_z, utc_now

Tally = Counter[tuple[int, int, str]]
"""Count of ratings by (scale, value, reason); scale is max_stars for star ratings, 0 otherwise; reason
is a helpful rating's counted reason (NO_REASON for none)."""

MAX_POINTS = 366
"""A series answers at most a year of days (or seven years of weeks) in one request."""
DEFAULT_BUCKETS = {"day": 30, "week": 12}
"""Without since, a series shows the last 30 days or the last 12 weeks up to until (or now)."""


class RatingStatistics(ProjectScoped):
    """The rating figures of one project, found within the scope's organization."""

    async def stats(
        self,
        rating_type: RatingType,
        path: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> RatingStats:
        """Statistics of the non-archived ratings of one type in [since, until), optionally for one path."""
        split = split_days(since, until)
        tally: Tally = Counter()
        if split.all_time:
            rows = await self.session.execute(_totals_query(self.project, rating_type, path))
            for scale, value, reason, count in rows.tuples():
                tally[scale, value, reason] += int(count)
        elif split.has_whole_days:
            rows = await self.session.execute(_counter_query(self.project, rating_type, path, split))
            for scale, value, reason, count in rows.tuples():
                tally[scale, value, reason] += int(count)
        for start, end in split.edges:
            tally.update(await self._row_tally(rating_type, path, start, end))
        return stats_of(rating_type, tally)

    async def series(
        self,
        rating_type: RatingType,
        path: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        interval: Interval = "day",
    ) -> RatingSeries:
        """One point per day or ISO week (starting Monday) from since to until, empty buckets included."""
        last_day = ((until or utc_now()) - timedelta(microseconds=1)).date()
        if since is None:
            first_bucket = bucket_start(last_day, interval) - _step(interval) * (
                DEFAULT_BUCKETS[interval] - 1
            )
            since = start_of_day(first_bucket)
        starts = _bucket_starts(since.date(), last_day, interval)
        tallies = await self._day_tallies(rating_type, path, since, until)
        by_bucket: defaultdict[date, Tally] = defaultdict(Counter)
        for day, tally in tallies.items():
            by_bucket[bucket_start(day, interval)].update(tally)
        points = [
            _point(stats_of(rating_type, by_bucket[start]), iso_z(start_of_day(start))) for start in starts
        ]
        series_type = _SERIES[rating_type]
        return series_type(interval=interval, points=points)  # type: ignore[arg-type]

    async def versions(self, rating_type: RatingType, path: str | None = None) -> RatingVersions:
        """All-time statistics of each version with counted ratings, in the order the versions were first
        seen (their first UTC day with a counted rating), from the totals and the day counters."""
        where = (
            RatingTotal.project_id == self.project.id,
            RatingTotal.rating_type == str(rating_type),
            RatingTotal.path == (path or ALL_PATHS),
            RatingTotal.version != NO_VERSION,
        )
        tallies: defaultdict[str, Tally] = defaultdict(Counter)
        rows = await self.session.execute(
            select(
                RatingTotal.version,
                RatingTotal.scale,
                RatingTotal.value,
                RatingTotal.reason,
                RatingTotal.count,
            ).where(*where)
        )
        for version, scale, value, reason, count in rows.tuples():
            tallies[version][scale, value, reason] += int(count)
        first_days = await self.session.execute(
            select(RatingCounter.version, func.min(RatingCounter.day))
            .where(
                RatingCounter.project_id == self.project.id,
                RatingCounter.rating_type == str(rating_type),
                RatingCounter.path == (path or ALL_PATHS),
                RatingCounter.version != NO_VERSION,
                RatingCounter.count > 0,
            )
            .group_by(RatingCounter.version)
        )
        seen = sorted((day, version) for version, day in first_days.tuples())
        entry_type, body_type = _VERSIONS[rating_type]
        entries = [
            entry_type(
                **msgspec.structs.asdict(stats_of(rating_type, tallies[version])),
                version=version,
                first_seen=day.isoformat(),
            )
            for day, version in seen
        ]
        return body_type(versions=entries)  # type: ignore[arg-type]

    async def counted_total(
        self,
        rating_type: RatingType,
        path: str | None = None,
        value: int | None = None,
    ) -> int:
        """How many non-archived ratings match, summed from the totals instead of counting rows."""
        query = select(func.coalesce(func.sum(RatingTotal.count), 0)).where(
            RatingTotal.project_id == self.project.id,
            RatingTotal.rating_type == str(rating_type),
            RatingTotal.path == (path or ALL_PATHS),
        )
        if value is not None:
            query = query.where(RatingTotal.value == value)
        return int(await self.session.scalar(query) or 0)

    async def _day_tallies(
        self,
        rating_type: RatingType,
        path: str | None,
        since: datetime,
        until: datetime | None,
    ) -> dict[date, Tally]:
        split = split_days(since, until)
        tallies: defaultdict[date, Tally] = defaultdict(Counter)
        if split.has_whole_days:
            query = _counter_query(self.project, rating_type, path, split)
            rows = await self.session.execute(
                query.add_columns(RatingCounter.day).group_by(RatingCounter.day)
            )
            for scale, value, reason, count, day in rows.tuples():
                tallies[day][scale, value, reason] += int(count)
        for start, end in split.edges:
            tallies[start.date()].update(await self._row_tally(rating_type, path, start, end))
        return tallies

    async def _row_tally(
        self,
        rating_type: RatingType,
        path: str | None,
        start: datetime,
        end: datetime,
    ) -> Tally:
        """Count one partial day from the rating rows themselves (at most a day of one type), a helpful
        rating under the reason the counters count it by."""
        reason = Rating.custom_data["reason"] if rating_type == RatingType.HELPFUL else literal(None)
        query = (
            select(Rating.max_stars, Rating.value, reason, func.count())
            .where(
                Rating.project_id == self.project.id,
                Rating.rating_type == str(rating_type),
                Rating.archived == false(),
                Rating.created_at >= start,
                Rating.created_at < end,
            )
            .group_by(Rating.max_stars, Rating.value, reason)
        )
        if path:
            query = query.where(Rating.path == path)
        tally: Tally = Counter()
        for scale, value, given, n in (await self.session.execute(query)).tuples():
            tally[scale or 0, value, counted_reason(rating_type, given)] += int(n)
        return tally


@dataclass(frozen=True, slots=True)
class DaySplit:
    """[since, until) as whole days [first_day, end_day) read from counters plus partial-day edges."""

    first_day: date | None = None
    end_day: date | None = None
    edges: list[tuple[datetime, datetime]] = field(default_factory=list)
    empty: bool = False

    @property
    def all_time(self) -> bool:
        return not self.empty and self.first_day is None and self.end_day is None and not self.edges

    @property
    def has_whole_days(self) -> bool:
        if self.empty:
            return False
        return self.first_day is None or self.end_day is None or self.first_day < self.end_day


def split_days(since: datetime | None, until: datetime | None) -> DaySplit:
    if since is not None and until is not None and since >= until:
        return DaySplit(empty=True)
    edges: list[tuple[datetime, datetime]] = []
    first_day = end_day = None
    if since is not None:
        first_day = since.date()
        if since != start_of_day(first_day):
            first_day += timedelta(days=1)
            edge_end = start_of_day(first_day)
            edges.append((since, edge_end if until is None else min(edge_end, until)))
    if until is not None:
        end_day = until.date()
        midnight = start_of_day(end_day)
        if until != midnight and (since is None or since <= midnight):
            edges.append((midnight, until))
    return DaySplit(first_day=first_day, end_day=end_day, edges=edges)


def bucket_start(day: date, interval: Interval) -> date:
    return day - timedelta(days=day.weekday()) if interval == "week" else day


def stats_of(rating_type: RatingType, tally: Tally) -> RatingStats:
    if rating_type == RatingType.HELPFUL:
        return helpful_stats(tally)
    counts: Counter[tuple[int, int]] = Counter()
    for (scale, value, _), n in tally.items():
        counts[scale, value] += n
    positive = {key: n for key, n in counts.items() if n}
    return star_stats(positive) if rating_type == RatingType.STAR else nps_stats(positive)


def helpful_stats(tally: Tally) -> HelpfulStats:
    helpful = sum(n for (_, value, _), n in tally.items() if value == 1)
    total = sum(tally.values())
    reasons: Counter[str] = Counter()
    for (_, value, reason), n in tally.items():
        if value == 0 and reason != NO_REASON:
            reasons[reason] += n
    return HelpfulStats(
        total=total,
        helpful=helpful,
        not_helpful=total - helpful,
        percentage=round(100 * helpful / total, 1) if total else 0.0,
        reasons={
            reason: n for reason, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0])) if n
        },
    )


def star_stats(tally: dict[tuple[int, int], int]) -> StarStats:
    total = sum(tally.values())
    top = max((scale for scale, _ in tally), default=DEFAULT_MAX_STARS)
    distribution = dict.fromkeys((str(star) for star in range(1, top + 1)), 0)
    for (_, value), n in tally.items():
        distribution[str(value)] += n
    points = sum(value * n for (_, value), n in tally.items())
    return StarStats(
        total=total,
        average=round(points / total, 2) if total else 0.0,
        distribution=distribution,
    )


def nps_stats(tally: dict[tuple[int, int], int]) -> NpsStats:
    distribution = dict.fromkeys((str(score) for score in range(11)), 0)
    for (_, value), n in tally.items():
        distribution[str(value)] += n
    total = sum(distribution.values())
    promoters = distribution["9"] + distribution["10"]
    passives = distribution["7"] + distribution["8"]
    detractors = total - promoters - passives
    score = round(100 * (promoters - detractors) / total) if total else 0
    return NpsStats(
        total=total,
        score=score,
        promoters=promoters,
        passives=passives,
        detractors=detractors,
        distribution=distribution,
        category=nps_category(score),
    )


def nps_category(score: int) -> NpsCategory:
    if score >= 70:
        return "excellent"
    if score >= 50:
        return "great"
    if score >= 30:
        return "good"
    if score >= 0:
        return "needs_improvement"
    return "critical"


def _totals_query(project: Project, rating_type: RatingType, path: str | None) -> Select[Any]:
    return (
        select(RatingTotal.scale, RatingTotal.value, RatingTotal.reason, func.sum(RatingTotal.count))
        .where(
            RatingTotal.project_id == project.id,
            RatingTotal.rating_type == str(rating_type),
            RatingTotal.path == (path or ALL_PATHS),
        )
        .group_by(RatingTotal.scale, RatingTotal.value, RatingTotal.reason)
    )


def _counter_query(
    project: Project, rating_type: RatingType, path: str | None, split: DaySplit
) -> Select[Any]:
    query = (
        select(RatingCounter.scale, RatingCounter.value, RatingCounter.reason, func.sum(RatingCounter.count))
        .where(
            RatingCounter.project_id == project.id,
            RatingCounter.rating_type == str(rating_type),
            RatingCounter.path == (path or ALL_PATHS),
        )
        .group_by(RatingCounter.scale, RatingCounter.value, RatingCounter.reason)
    )
    if split.first_day is not None:
        query = query.where(RatingCounter.day >= split.first_day)
    if split.end_day is not None:
        query = query.where(RatingCounter.day < split.end_day)
    return query


def _step(interval: Interval) -> timedelta:
    return timedelta(weeks=1) if interval == "week" else timedelta(days=1)


def _bucket_starts(first_day: date, last_day: date, interval: Interval) -> Sequence[date]:
    first, last = bucket_start(first_day, interval), bucket_start(last_day, interval)
    count = (last - first) // _step(interval) + 1
    if count > MAX_POINTS:
        raise InvalidRequest(
            "since", f"the series would have {count} points; at most {MAX_POINTS} are allowed"
        )
    return [first + _step(interval) * i for i in range(max(count, 0))]


_POINTS: dict[type[Any], type[Any]] = {HelpfulStats: HelpfulPoint, StarStats: StarPoint, NpsStats: NpsPoint}
_SERIES: dict[str, type[Any]] = {
    RatingType.HELPFUL: HelpfulSeries,
    RatingType.STAR: StarSeries,
    RatingType.NPS: NpsSeries,
}


def _point(stats: RatingStats, start: str) -> Any:
    return _POINTS[type(stats)](start=start, **msgspec.structs.asdict(stats))


_VERSIONS: dict[RatingType, tuple[type[Any], type[RatingVersions]]] = {
    RatingType.HELPFUL: (HelpfulVersion, HelpfulVersions),
    RatingType.STAR: (StarVersion, StarVersions),
    RatingType.NPS: (NpsVersion, NpsVersions),
}
