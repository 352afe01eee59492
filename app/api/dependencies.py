"""Dependencies of the authenticated API: the organization's projects, and the one project a path names."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Project
from app.services.projects import Projects
from tenants.scope import OrgScope


async def provide_projects(db_session: AsyncSession, org_scope: OrgScope) -> Projects:
    return Projects(db_session, org_scope)


async def provide_project(project_id: str, projects: Projects) -> Project:
    """The project named by the path, already checked against the caller's organization."""
    return await projects.get(project_id)
