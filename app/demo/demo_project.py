"""The demo organization and project that /demo submits to, and what one visitor has submitted to it.

The project is found by a fixed public key, so every start of the server reuses it. It is made (or given
the server's origin) only by an explicit POST, and its only origin is HEARKEN_BASE_URL's: never one taken
from a request's Host header. Its key is public, so anyone may send to it; each visitor's page therefore
lists only the rows carrying that visitor's own random version marker, never other people's names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ContactMessage, FeedbackItem, Organization, Project, Rating
from app.ingest import normalize_origin
from app.services.projects import Projects
from tenants.scope import OrgScope, operator_scope

DEMO_PROJECT_KEY = UUID("4ea7c3e0-de30-4000-8000-000000000001")
DEMO_ORG_NAME = "Hearken demo"
RECENT = 5
Submission = TypeVar("Submission", Rating, FeedbackItem, ContactMessage)


async def find_demo_project(session: AsyncSession) -> Project | None:
    return await session.scalar(select(Project).where(Project.key == DEMO_PROJECT_KEY))


def demo_is_ready(project: Project | None, origin: str) -> bool:
    return project is not None and normalize_origin(origin) in project.allowed_origins


async def ensure_demo_project(session: AsyncSession, origin: str) -> Project:
    """Create the demo project, or add the server's origin to it, in the caller's transaction."""
    wanted = [normalize_origin(origin)]
    project = await find_demo_project(session)
    if project is None:
        org = Organization(name=DEMO_ORG_NAME)
        session.add(org)
        await session.flush()
        projects = Projects(session, _scope(org.id))
        project = await projects.create(
            name="Demo site", description="Receives what the /demo page sends.", allowed_origins=wanted
        )
        project.key = DEMO_PROJECT_KEY
        await session.flush()
    elif any(origin not in project.allowed_origins for origin in wanted):
        await Projects(session, _scope(project.org_id)).update(
            project, allowed_origins=[*project.allowed_origins, *wanted]
        )
    return project


def _scope(org_id: UUID) -> OrgScope:
    return operator_scope(org_id, actor="demo")


@dataclass
class RecentSubmissions:
    ratings: list[Rating]
    feedback: list[FeedbackItem]
    contact_messages: list[ContactMessage]


async def recent_submissions(session: AsyncSession, project: Project, version: str) -> RecentSubmissions:
    """The newest few of each kind sent with this visitor's version marker, so the demo shows that a
    submission was stored without showing anyone else's."""
    return RecentSubmissions(
        ratings=await _newest(session, Rating, project, version),
        feedback=await _newest(session, FeedbackItem, project, version),
        contact_messages=await _newest(session, ContactMessage, project, version),
    )


async def _newest(
    session: AsyncSession, model: type[Submission], project: Project, version: str
) -> list[Submission]:
    rows = await session.scalars(
        select(model)
        .where(model.project_id == project.id, model.version == version)
        .order_by(model.created_at.desc(), model.id.desc())
        .limit(RECENT)
    )
    return list(rows)
