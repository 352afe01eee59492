"""The demo organization and project that /demo submits to, and what has been submitted to it.

The project is found by a fixed public key, so every start of the server reuses it. Its allowed origins
always include the origin the demo page was served from (localhost and 127.0.0.1 are different origins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ContactMessage, FeedbackItem, Organization, Project, Rating
from app.services.origins import normalize_origin
from app.services.projects import Projects
from tenants.scope import OrgScope

DEMO_PROJECT_KEY = UUID("4ea7c3e0-de30-4000-8000-000000000001")
DEMO_ORG_NAME = "Hearken demo"
RECENT = 5
Submission = TypeVar("Submission", Rating, FeedbackItem, ContactMessage)


async def ensure_demo_project(session: AsyncSession, origins: list[str]) -> Project:
    wanted = [normalize_origin(origin) for origin in origins]
    project = await session.scalar(select(Project).where(Project.key == DEMO_PROJECT_KEY))
    if project is None:
        org = Organization(name=DEMO_ORG_NAME)
        session.add(org)
        await session.flush()
        projects = Projects(session, _scope(org.id))
        project = await projects.create(
            name="Demo site", description="Receives what the /demo page sends.", allowed_origins=wanted
        )
        project.key = DEMO_PROJECT_KEY
        await session.commit()
    elif any(origin not in project.allowed_origins for origin in wanted):
        await Projects(session, _scope(project.org_id)).update(
            project, allowed_origins=[*project.allowed_origins, *wanted]
        )
    return project


def _scope(org_id: UUID) -> OrgScope:
    return OrgScope(org_id=org_id, actor="demo", can_write=True)


@dataclass
class RecentSubmissions:
    ratings: list[Rating]
    feedback: list[FeedbackItem]
    contact_messages: list[ContactMessage]


async def recent_submissions(session: AsyncSession, project: Project) -> RecentSubmissions:
    """The newest few of each kind, so the demo shows that a submission was stored."""
    return RecentSubmissions(
        ratings=await _newest(session, Rating, project),
        feedback=await _newest(session, FeedbackItem, project),
        contact_messages=await _newest(session, ContactMessage, project),
    )


async def _newest(session: AsyncSession, model: type[Submission], project: Project) -> list[Submission]:
    rows = await session.scalars(
        select(model)
        .where(model.project_id == project.id)
        .order_by(model.created_at.desc(), model.id.desc())
        .limit(RECENT)
    )
    return list(rows)
