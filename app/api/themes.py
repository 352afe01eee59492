"""Themes of a project: what its feedback is saying, grouped by meaning, and asking for a recompute."""

from __future__ import annotations

from litestar import Controller, get, post

from app.api.parameters import Since, Until
from app.dependencies import provide
from app.errors import error_responses
from app.schemas.insights import ThemesOut
from app.services.feedback_bodies import themes
from app.services.insights import Insights


class ThemeController(Controller):
    path = "/projects/{project_id:str}/themes"
    tags = ["Insights"]
    dependencies = {"insights": provide(Insights)}

    @get("/", summary="Themes of the project's feedback", responses=error_responses(400, 401, 403, 404, 503))
    async def list_themes(self, insights: Insights, since: Since = None, until: Until = None) -> ThemesOut:
        """Groups of feedback that say the same thing, biggest first, labelled with the messages' own words,
        with their count in [since, until) (default: the last 30 days) and in the window of equal length
        before. Archived items and duplicates are left out; `pending` counts the window's items not yet
        embedded. Themes are recomputed in the background when new items arrived, and on request."""
        return await themes(insights, since, until)

    @post(
        "/refresh",
        summary="Recompute the project's themes in the background",
        status_code=202,
        responses=error_responses(400, 401, 403, 404, 503),
    )
    async def refresh_themes(self, insights: Insights) -> None:
        """Accepted: a server process recomputes the themes shortly (GET shows the new `computed_at`)."""
        await insights.request_refresh()
