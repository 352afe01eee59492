"""Churn of a project: the cancellations Stripe and Polar reported, their export, and thanking a
cancelling customer with a discount."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, get, post
from litestar.response import Stream
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.parameters import Since, Until
from app.churn.report import ChurnReport, churn_conditions, churn_report, churn_window
from app.churn.rewards import Rewards
from app.compression import SKIP_COMPRESSION
from app.db.ids import parse_uuid
from app.db.models import FeedbackItem, Project
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide
from app.errors import error_responses
from app.exports import CHURN, ExportFormat, export_response
from app.schemas.churn import CancellationOut, ChurnOut, ChurnThemeOut, MonthOut, RewardBody, RewardOut
from app.services.time_bounds import parse_bounds
from app.timestamps import iso_z


def churn_out(report: ChurnReport) -> ChurnOut:
    return ChurnOut(
        since=iso_z(report.since),
        until=iso_z(report.until),
        cancellations=report.cancellations,
        by_reason=report.by_reason,
        by_month=[MonthOut(m.month, m.cancellations, m.change) for m in report.by_month],
        themes=[
            ChurnThemeOut(str(t.theme.id), t.theme.label, list(t.theme.keywords), t.cancellations)
            for t in report.themes
        ],
        recent=[CancellationOut.of(item, reward) for item, reward in report.recent],
    )


class ChurnController(Controller):
    path = "/projects/{project_id:str}"
    tags = ["Churn"]
    dependencies = {"rewards": provide(Rewards)}

    @get(
        "/churn",
        summary="Cancellations reported by Stripe and Polar: by month, by reason, by theme, the newest",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def churn(
        self, db_session: AsyncSession, project: Project, since: Since = None, until: Until = None
    ) -> ChurnOut:
        """Over [since, until) (default: this month and the eleven before, at most 120 months), every
        cancellation counts, archived or not. `by_month` lists every month of the window with the change
        from the month before; `themes` groups the comments by meaning (empty while insights are off)."""
        start, end = parse_bounds(since, until)
        return churn_out(await churn_report(db_session, project, start, end))

    @get(
        "/churn/export",
        summary="Export the cancellations as CSV or NDJSON (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True, **REPLICA_READS},
    )
    async def export_churn(
        self,
        request: Request[Any, Any, Any],
        project: Project,
        since: Since = None,
        until: Until = None,
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every cancellation of the window, newest first, with its reason and any discount applied; CSV
        cells that a spreadsheet would run as formulas are defused."""
        start, end = churn_window(*parse_bounds(since, until))
        query = (
            CHURN.select()
            .where(*churn_conditions(project.id, start, end))
            .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
        )
        return export_response(await read_sessions(request), project, CHURN, query, format)

    @post(
        "/feedback/{feedback_id:str}/rewards",
        summary="Thank the customer who cancelled with a discount on their subscription",
        responses=error_responses(400, 401, 403, 404, 409, 413, 415, 502),
    )
    async def create_reward(self, feedback_id: str, data: RewardBody, rewards: Rewards) -> RewardOut:
        """Applies the team's coupon (Stripe: a coupon id; Polar: a discount id) to the subscription the
        item's cancellation was about, with the API key saved on the integration. Once per item (409
        after); 502 with the platform's words when it refuses, and nothing is recorded then."""
        coupon = None if data.coupon is msgspec.UNSET else data.coupon
        return RewardOut.of(await rewards.thank(parse_uuid(feedback_id, "feedback_id"), coupon))
