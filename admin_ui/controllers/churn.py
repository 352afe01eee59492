"""The project's Churn tab: the cancellations Stripe and Polar reported, per month (a chart, and the
change from the month before), by reason, by theme of the comments, and the newest, each linked to its
feedback page where the customer can be thanked with a discount; downloads of the same cancellations.

Figures come from the churn report the API serves (app/churn/report.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from litestar import Controller, Request, get
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Stream
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.charts import bar_chart
from admin_ui.controllers.exports import export_format
from admin_ui.listing import choice
from admin_ui.rendering import render
from app.churn.report import churn_conditions, churn_report
from app.compression import SKIP_COMPRESSION
from app.db.models import FeedbackItem, Project
from app.db.read_routing import REPLICA_READS, read_sessions
from app.exports import CHURN, export_response
from app.timestamps import utc_now

MONTHS = ("3", "6", "12", "24")
"""Months the console offers as the window, the current one included."""


def months_since(request: Request[Any, Any, Any]) -> tuple[str, datetime]:
    """The chosen window in months, and its first moment: the 1st of the earliest month (UTC)."""
    months = choice(request.query_params.get("months"), MONTHS, "months") or "12"
    now = utc_now()
    first = now.year * 12 + now.month - int(months)
    return months, datetime(first // 12, first % 12 + 1, 1, tzinfo=UTC)


class ChurnController(Controller):
    path = "/projects/{project_id:str}/churn"
    include_in_schema = False

    @get("/", opt=REPLICA_READS)
    async def churn_page(self, request: HTMXRequest, db_session: AsyncSession, project: Project) -> Any:
        months, since = months_since(request)
        report = await churn_report(db_session, project, since, None)
        peak = max((month.cancellations for month in report.by_month), default=0)
        chart = bar_chart(
            "Cancellations per month",
            [(m.month, float(m.cancellations), m.cancellations) for m in report.by_month],
            low=0,
            high=max(peak, 4),
            steps=4,
        )
        return render(
            request,
            "churn.html",
            project=project,
            report=report,
            chart=chart,
            months=months,
            windows=MONTHS,
            reasons_total=max(report.cancellations, 1),
        )

    @get("/export", opt={SKIP_COMPRESSION: True, **REPLICA_READS})
    async def export(self, request: Request[Any, Any, Any], project: Project) -> Stream:
        _, since = months_since(request)
        query = (
            CHURN.select()
            .where(*churn_conditions(project.id, since, utc_now()))
            .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
        )
        return export_response(await read_sessions(request), project, CHURN, query, export_format(request))
