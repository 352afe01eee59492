"""GET /projects and GET /projects/{project_id}."""

from __future__ import annotations

from litestar import Controller, get

from app.db.models import Project
from app.errors import error_responses
from app.schemas.project import ProjectList, ProjectOut
from app.services.projects import Projects


class ProjectController(Controller):
    path = "/projects"
    tags = ["Projects"]

    @get("/", summary="List the organization's projects", responses=error_responses(401))
    async def list_projects(self, projects: Projects) -> ProjectList:
        items = await projects.list()
        counts = await projects.feedback_counts(items)
        return ProjectList(projects=[ProjectOut.of(p, counts[p.id]) for p in items])

    @get(
        "/{project_id:str}",
        summary="Get one project by id or key",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_project(self, project: Project, projects: Projects) -> ProjectOut:
        counts = await projects.feedback_counts([project])
        return ProjectOut.of(project, counts[project.id])
