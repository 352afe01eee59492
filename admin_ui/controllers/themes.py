"""The project's Themes tab: what its feedback is saying, grouped by meaning (label, keywords, count and
change against the previous period, a link to the inbox filtered by the theme) and "Refresh themes"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.listing import choice
from admin_ui.rendering import go_to, render
from app.db.models import Project
from app.dependencies import provide
from app.errors import Unavailable
from app.services.insights import Insights
from app.timestamps import utc_now
from tenants.permissions import needs
from tenants.scope import Access

WINDOWS = {"7": 7, "30": 30, "90": 90}
"""Days the console offers as the period (the previous period is as long, just before)."""


class ThemesController(Controller):
    path = "/projects/{project_id:str}/themes"
    include_in_schema = False
    dependencies = {"insights": provide(Insights)}

    @get("/")
    async def themes(self, request: HTMXRequest, project: Project, insights: Insights) -> Any:
        days = choice(request.query_params.get("days"), list(WINDOWS), "days") or "30"
        report, unavailable = None, None
        try:
            insights.engine()
            until = utc_now()
            report = await insights.themes(until - timedelta(days=WINDOWS[days]), until)
        except Unavailable as exc:
            unavailable = exc.details
        return render(
            request,
            "themes.html",
            project=project,
            report=report,
            unavailable=unavailable,
            days=days,
            windows=list(WINDOWS),
            refreshing=request.query_params.get("refreshing") == "1",
        )

    @post("/refresh", opt=needs(Access.WRITE))
    async def refresh(self, request: HTMXRequest, project: Project, insights: Insights) -> Any:
        await insights.request_refresh()
        return go_to(request, f"/projects/{project.id}/themes?refreshing=1")
