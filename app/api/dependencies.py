"""Dependencies of the authenticated API: the one project a path names."""

from __future__ import annotations

from app.db.models import Project
from app.services.projects import Projects


async def provide_project(project_id: str, projects: Projects) -> Project:
    """The project named by the path, already checked against the caller's organization."""
    return await projects.get(project_id)
