"""The ideas portal's settings on the project page: on or off, its title, intro and accent colour,
whether suggestions need the team's approval, who may vote, and whether search engines may index it,
with a link to the public portal. Owners and admins change them (through the same Projects service and
rules as `PATCH /api/v1/projects/{id}`); members see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Controller, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.forms import Form
from admin_ui.rendering import render
from app.db.models import Project
from app.errors import InvalidRequest, msgspec_violation
from app.schemas.portal import PortalPatch
from app.services.projects import Projects


@dataclass
class PortalForm:
    """An unticked checkbox sends nothing: absent is off."""

    enabled: str = ""
    title: str = ""
    intro: str = ""
    accent_color: str = ""
    auto_approve: str = ""
    voting: str = "verified"
    indexable: str = ""

    def patch(self) -> PortalPatch:
        body = {
            "enabled": self.enabled == "true",
            "title": self.title.strip() or None,
            "intro": self.intro.strip(),
            "accent_color": self.accent_color.strip(),
            "auto_approve": self.auto_approve == "true",
            "voting": self.voting,
            "indexable": self.indexable == "true",
        }
        try:
            return msgspec.convert(body, PortalPatch)
        except msgspec.ValidationError as exc:
            rule, name = msgspec_violation(exc)
            raise InvalidRequest(name or "portal", rule) from None


def portal_context(project: Project) -> dict[str, Any]:
    """What the project page's template needs besides a fragment's own values."""
    return {"project": project, "values": {}, "errors": {}, "origin_errors": {}}


class PortalSettingsController(Controller):
    path = "/projects/{project_id:str}/portal"
    include_in_schema = False

    @post("/")
    async def save(
        self, request: HTMXRequest, project: Project, projects: Projects, data: Form[PortalForm]
    ) -> Any:
        try:
            await projects.update(project, portal=data.patch())
        except InvalidRequest as exc:
            return render(
                request,
                "project.html",
                fragment="partials/_portal.html",
                status_code=400,
                **portal_context(project),
                portal_values=vars(data),
                portal_errors={exc.field: exc.details.removeprefix(f"{exc.field}: ")},
            )
        return render(
            request,
            "project.html",
            fragment="partials/_portal.html",
            **portal_context(project),
            portal_saved=True,
        )
