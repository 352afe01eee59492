"""Projects: list with what each has collected, create, edit name and description, delete with
confirmation. The project page shows the public key with a copy button and its allowed origins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.forms import Form, field_error, form_values
from admin_ui.rendering import go_to, render
from app.db.identity_secret import identity_box
from app.db.models import Project
from app.errors import InvalidRequest
from app.services.project_activity import contact_counts, rating_counts
from app.services.projects import Projects
from tenants.permissions import needs
from tenants.scope import Access

ADMIN = needs(Access.ADMIN)


@dataclass
class ProjectForm:
    name: str = ""
    description: str = ""
    retention_days: str = ""


@dataclass
class VerifiedUsersForm:
    require_verified_users: str = ""
    """"true" when the checkbox is ticked; an unticked box sends nothing."""


def retention_days_of(text: str) -> int | None:
    """Empty keeps data forever; anything else must be whole days (the service checks the range)."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise InvalidRequest(
            "retention_days", "must be a whole number of days, or empty to keep data forever"
        )
    return int(text)


def project_url(project: Project, *rest: str) -> str:
    return "/".join([f"/projects/{project.id}", *rest])


def _page(project: Project) -> dict[str, Any]:
    """What the project page's template needs besides a fragment's own values."""
    return {"project": project, "values": {}, "errors": {}, "origin_errors": {}}


class ProjectsController(Controller):
    path = "/projects"
    include_in_schema = False

    @get("/")
    async def projects_page(self, request: HTMXRequest, db_session: AsyncSession, projects: Projects) -> Any:
        items = await projects.list()
        return render(
            request,
            "projects.html",
            projects=items,
            feedback=await projects.feedback_counts(items),
            ratings=await rating_counts(db_session, items),
            contacts=await contact_counts(db_session, items),
        )

    @get("/new", opt=ADMIN)
    async def new_project_page(self, request: HTMXRequest) -> Any:
        return render(request, "project_new.html", values={}, errors={})

    @post("/")
    async def create(self, request: HTMXRequest, projects: Projects, data: Form[ProjectForm]) -> Any:
        try:
            project = await projects.create(name=data.name, description=data.description)
        except InvalidRequest as exc:
            return render(
                request,
                "project_new.html",
                status_code=400,
                values=form_values(data),
                errors=field_error(exc),
            )
        return go_to(request, project_url(project))

    @get("/{project_id:str}")
    async def project_page(self, request: HTMXRequest, project: Project) -> Any:
        return render(request, "project.html", project=project, values={}, errors={}, origin_errors={})

    @post("/{project_id:str}")
    async def update(
        self, request: HTMXRequest, project: Project, projects: Projects, data: Form[ProjectForm]
    ) -> Any:
        try:
            await projects.update(
                project,
                name=data.name,
                description=data.description,
                retention_days=retention_days_of(data.retention_days),
            )
        except InvalidRequest as exc:
            return render(
                request,
                "project.html",
                fragment="partials/_project_details.html",
                status_code=400,
                project=project,
                values=form_values(data),
                errors=field_error(exc),
                origin_errors={},
            )
        return render(
            request,
            "project.html",
            fragment="partials/_project_details.html",
            project=project,
            values={},
            errors={},
            origin_errors={},
            saved=True,
        )

    @post("/{project_id:str}/identity-secret")
    async def rotate_identity_secret(self, request: HTMXRequest, project: Project, projects: Projects) -> Any:
        """Shows the new secret in this answer only."""
        box = identity_box(request.app.state.settings.secret_key)
        secret = await projects.rotate_identity_secret(project, box)
        return render(
            request,
            "project.html",
            fragment="partials/_identity.html",
            **_page(project),
            identity_secret=secret,
        )

    @post("/{project_id:str}/verified-users")
    async def set_verified_users(
        self, request: HTMXRequest, project: Project, projects: Projects, data: Form[VerifiedUsersForm]
    ) -> Any:
        await projects.update(project, require_verified_users=data.require_verified_users == "true")
        return render(
            request, "project.html", fragment="partials/_identity.html", **_page(project), saved=True
        )

    @get("/{project_id:str}/delete", opt=ADMIN)
    async def delete_page(self, request: HTMXRequest, project: Project) -> Any:
        return render(request, "project_delete.html", project=project)

    @post("/{project_id:str}/delete")
    async def delete(self, request: HTMXRequest, project: Project, projects: Projects) -> Any:
        await projects.delete(project)
        return go_to(request, "/projects")
