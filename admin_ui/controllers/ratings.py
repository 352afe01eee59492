"""Ratings per project: helpful percentage, star average and distribution, NPS score and category,
each with a chart over time; the chosen page's helpfulness per version and its most common reasons for
"No"; and the pages with the most "not helpful" votes.

Figures come from the rating statistics service the API uses (`RatingStatistics`)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, get
from litestar.plugins.htmx import HTMXRequest

from admin_ui.charts import bar_chart
from admin_ui.listing import choice
from admin_ui.rendering import render
from admin_ui.version_ranges import reason_label, significant_drop, version_ranges
from app.db.models import Project, RatingType
from app.db.models.field_rules import PATH_MAX_LENGTH, is_page_path
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import InvalidRequest
from app.schemas.rating_stats import HelpfulVersions
from app.services.helpful_pages import HelpfulPages
from app.services.rating_stats import RatingStatistics


def rating_path(value: str) -> str | None:
    value = value.strip()
    if not value:
        return None
    if not is_page_path(value):
        raise InvalidRequest("path", f"must start with / (at most {PATH_MAX_LENGTH} characters)")
    return value


class RatingsController(Controller):
    path = "/projects/{project_id:str}/ratings"
    include_in_schema = False
    dependencies = {"statistics": provide(RatingStatistics), "pages": provide(HelpfulPages)}

    @get("/", opt=REPLICA_READS)
    async def ratings_page(
        self, request: HTMXRequest, project: Project, statistics: RatingStatistics, pages: HelpfulPages
    ) -> Any:
        interval = choice(request.query_params.get("interval"), ("day", "week"), "interval") or "day"
        path = rating_path(request.query_params.get("path", ""))
        helpful = await statistics.stats(RatingType.HELPFUL, path)
        star = await statistics.stats(RatingType.STAR, path)
        nps = await statistics.stats(RatingType.NPS, path)
        series = {
            kind: (await statistics.series(kind, path, interval=interval)).points  # type: ignore[arg-type]
            for kind in RatingType
        }
        versions = await statistics.versions(RatingType.HELPFUL, path)
        assert isinstance(versions, HelpfulVersions)
        ranges = version_ranges(versions.versions)
        max_stars = len(star.distribution)  # type: ignore[union-attr]
        label = "Week of " if interval == "week" else ""
        charts = {
            "helpful": bar_chart(
                "Helpful % per " + interval,
                [(label + p.start[:10], p.percentage, p.total) for p in series[RatingType.HELPFUL]],  # type: ignore[union-attr]
                low=0,
                high=100,
                unit=" %",
            ),
            "star": bar_chart(
                "Average stars per " + interval,
                [(label + p.start[:10], p.average, p.total) for p in series[RatingType.STAR]],  # type: ignore[union-attr]
                low=0,
                high=max_stars,
                unit=" ★",
                steps=max_stars,
            ),
            "nps": bar_chart(
                "NPS per " + interval,
                [(label + p.start[:10], float(p.score), p.total) for p in series[RatingType.NPS]],  # type: ignore[union-attr]
                low=-100,
                high=100,
            ),
        }
        return render(
            request,
            "ratings.html",
            project=project,
            helpful=helpful,
            star=star,
            nps=nps,
            charts=charts,
            pages=await pages.most_not_helpful(),
            versions=ranges,
            drop=significant_drop(ranges),
            reasons=[(reason_label(reason), n) for reason, n in list(helpful.reasons.items())[:5]],  # type: ignore[union-attr]
            interval=interval,
            path=path or "",
        )
