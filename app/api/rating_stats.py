"""Rating statistics, time series and per-version statistics of a project, read from the counters."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter

from app.api.parameters import PathFilter, Since, TypeFilter, Until
from app.db.models import RatingType
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import error_responses
from app.schemas.rating_stats import HelpfulStats, Interval, RatingSeries, RatingStats, RatingVersions
from app.services.rating_stats import RatingStatistics
from app.services.time_bounds import parse_bounds


class RatingStatsController(Controller):
    path = "/projects/{project_id:str}/ratings/stats"
    tags = ["Rating statistics"]
    opt = REPLICA_READS
    dependencies = {"statistics": provide(RatingStatistics)}

    @get(
        "/",
        summary="Helpful statistics (the older helpful-only endpoint)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def helpful_stats(
        self,
        statistics: RatingStatistics,
        path: PathFilter = None,
        since: Since = None,
        until: Until = None,
    ) -> HelpfulStats:
        """Counts of Yes and No, the helpful share and the reasons given with a No."""
        start, end = parse_bounds(since, until)
        stats = await statistics.stats(RatingType.HELPFUL, path, start, end)
        assert isinstance(stats, HelpfulStats)
        return stats

    @get(
        "/typed",
        summary="Statistics of one rating type; the body's shape depends on type",
        responses=error_responses(400, 401, 403, 404),
    )
    async def typed_stats(
        self,
        statistics: RatingStatistics,
        type: TypeFilter = RatingType.HELPFUL,
        path: PathFilter = None,
        since: Since = None,
        until: Until = None,
    ) -> RatingStats:
        """The body is the statistics of the type asked for: helpful, star or nps."""
        start, end = parse_bounds(since, until)
        return await statistics.stats(type, path, start, end)

    @get(
        "/series",
        summary="Statistics per UTC day or ISO week (Monday) for charts",
        description=(
            "One point per bucket from since to until, empty buckets included, at most 366 points. "
            "Without since: the last 30 days or 12 weeks before until (default now)."
        ),
        responses=error_responses(400, 401, 403, 404),
    )
    async def series(
        self,
        statistics: RatingStatistics,
        type: TypeFilter = RatingType.HELPFUL,
        path: PathFilter = None,
        since: Since = None,
        until: Until = None,
        interval: Annotated[Interval, Parameter(description="Bucket size: day or week.")] = "day",
    ) -> RatingSeries:
        """Buckets are UTC days or ISO weeks that start on Monday."""
        start, end = parse_bounds(since, until)
        return await statistics.series(type, path, start, end, interval)

    @get(
        "/versions",
        summary="All-time statistics of each version, in the order the versions were first seen",
        description=(
            "One entry per version with counted ratings: the version, its first UTC day with a counted "
            "rating (first_seen) and the statistics body of its ratings. Ratings without a version are "
            "not listed."
        ),
        responses=error_responses(400, 401, 403, 404),
    )
    async def versions(
        self,
        statistics: RatingStatistics,
        type: TypeFilter = RatingType.HELPFUL,
        path: PathFilter = None,
    ) -> RatingVersions:
        """Lets a release be compared with the one before it."""
        return await statistics.versions(type, path)
