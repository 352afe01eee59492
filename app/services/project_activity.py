"""How much each project has collected, for the console's project list: ratings (from the exact
counters, so it costs the same at any volume) and non-archived contact messages."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import false, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ALL_PATHS, ContactMessage, Project, RatingTotal


async def rating_counts(session: AsyncSession, projects: list[Project]) -> dict[UUID, int]:
    """Non-archived ratings of every type per project."""
    ids = [p.id for p in projects]
    if not ids:
        return {}
    rows = await session.execute(
        select(RatingTotal.project_id, func.coalesce(func.sum(RatingTotal.count), 0))
        .where(RatingTotal.project_id.in_(ids), RatingTotal.path == ALL_PATHS)
        .group_by(RatingTotal.project_id)
    )
    counts = {project_id: int(total) for project_id, total in rows.tuples()}
    return {i: counts.get(i, 0) for i in ids}


async def contact_counts(session: AsyncSession, projects: list[Project]) -> dict[UUID, int]:
    """Non-archived contact messages per project."""
    ids = [p.id for p in projects]
    if not ids:
        return {}
    rows = await session.execute(
        select(ContactMessage.project_id, func.count())
        .where(
            ContactMessage.project_id.in_(ids),
            ContactMessage.archived == false(),
            ContactMessage.spam == false(),
        )
        .group_by(ContactMessage.project_id)
    )
    counts: dict[UUID, int] = {project_id: count for project_id, count in rows.tuples()}
    return {i: counts.get(i, 0) for i in ids}
