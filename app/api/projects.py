"""GET /projects, GET /projects/{project_id} and PATCH /projects/{project_id}."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, get, patch, post

from app.db.identity_secret import identity_box
from app.db.models import Project
from app.errors import error_responses
from app.request_checks import strict_body
from app.schemas.project import IdentitySecret, ProjectList, ProjectOut, ProjectPatchBody
from app.services.projects import Projects
from tenants.permissions import needs
from tenants.scope import Access


class ProjectController(Controller):
    path = "/projects"
    tags = ["Projects"]

    @get("/", summary="List the organization's projects", responses=error_responses(401))
    async def list_projects(self, projects: Projects) -> ProjectList:
        """Every project of the token's organization, with its feedback count."""
        items = await projects.list()
        counts = await projects.feedback_counts(items)
        return ProjectList(projects=[ProjectOut.of(p, counts[p.id]) for p in items])

    @get(
        "/{project_id:str}",
        summary="Get one project by id or key",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_project(self, project: Project, projects: Projects) -> ProjectOut:
        """By the project's id or its public key; another organization's project is not found."""
        counts = await projects.feedback_counts([project])
        return ProjectOut.of(project, counts[project.id])

    @patch(
        "/{project_id:str}",
        summary="Change name, description, allowed origins, retention_days, require_verified_users or portal",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_project(
        self, project: Project, projects: Projects, data: ProjectPatchBody, request: Request[Any, Any, Any]
    ) -> ProjectOut:
        """Only the fields sent change; the answer is the project as stored."""
        body = await strict_body(request, data)  # "30" is not a number of days
        changes = {k: v for k, v in msgspec.structs.asdict(body).items() if v is not msgspec.UNSET}
        await projects.update(project, **changes)
        counts = await projects.feedback_counts([project])
        return ProjectOut.of(project, counts[project.id])

    @post(
        "/{project_id:str}/identity-secret",
        status_code=201,
        summary="Create or rotate the identity secret backends sign user ids with (shown only here)",
        responses=error_responses(400, 401, 403, 404),
        opt=needs(Access.ADMIN),
    )
    async def rotate_identity_secret(
        self, project: Project, projects: Projects, request: Request[Any, Any, Any]
    ) -> IdentitySecret:
        """A new secret replaces the old one at once (signatures made with the old one stop matching);
        it is stored encrypted and never shown again. Sign a user id with it: the lower-case hex
        HMAC-SHA256 of the id, keyed by the whole secret string."""
        box = identity_box(request.app.state.settings.secret_key)
        return IdentitySecret(secret=await projects.rotate_identity_secret(project, box))
