"""Install: for each project, every widget's snippet with the project key filled in."""

from __future__ import annotations

from typing import Any

from litestar import Controller, get
from litestar.plugins.htmx import HTMXRequest

from admin_ui.rendering import render
from admin_ui.snippets import COMMON_OPTIONS, WIDGETS, snippet
from app.config import Settings
from app.db.models import Project


class InstallController(Controller):
    path = "/projects/{project_id:str}/install"
    include_in_schema = False

    @get("/")
    async def install_page(self, request: HTMXRequest, project: Project) -> Any:
        settings: Settings = request.app.state.settings
        widgets = [(w, snippet(w, settings.base_url, str(project.key))) for w in WIDGETS]
        return render(
            request,
            "install.html",
            project=project,
            widgets=widgets,
            common_options=COMMON_OPTIONS,
            base_url=settings.base_url,
        )
