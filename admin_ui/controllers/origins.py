"""Allowed origins, edited in place: each entry is validated and normalized by the same function the
public endpoints compare origins with, and saved through Projects.update."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.forms import Form, field_error
from admin_ui.rendering import render
from app.db.models import Project
from app.errors import InvalidRequest
from app.ingest import normalize_origin
from app.services.projects import Projects


@dataclass
class OriginForm:
    origin: str = ""


class OriginsController(Controller):
    path = "/projects/{project_id:str}/origins"
    include_in_schema = False

    def _origins(
        self, request: HTMXRequest, project: Project, *, status_code: int = 200, **context: Any
    ) -> Any:
        context.setdefault("origin_errors", {})
        return render(
            request,
            "project.html",
            fragment="partials/_origins.html",
            status_code=status_code,
            project=project,
            values={},
            errors={},
            **context,
        )

    @post("/")
    async def add(
        self, request: HTMXRequest, project: Project, projects: Projects, data: Form[OriginForm]
    ) -> Any:
        try:
            origin = normalize_origin(data.origin, field="origin")
            if origin in project.allowed_origins:
                raise InvalidRequest("origin", f"{origin} is already allowed")
            await projects.update(project, allowed_origins=[*project.allowed_origins, origin])
        except InvalidRequest as exc:
            return self._origins(
                request, project, status_code=400, origin_errors=field_error(exc), origin_value=data.origin
            )
        return self._origins(request, project, added=origin)

    @post("/remove")
    async def remove(
        self, request: HTMXRequest, project: Project, projects: Projects, data: Form[OriginForm]
    ) -> Any:
        remaining = [o for o in project.allowed_origins if o != data.origin]
        if len(remaining) != len(project.allowed_origins):
            await projects.update(project, allowed_origins=remaining)
        return self._origins(request, project)
