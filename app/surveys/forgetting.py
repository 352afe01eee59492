"""Deletes survey responses with what they counted, for erasure and retention, in the caller's
transaction: the rows are locked in id order, their counts taken back, then they are deleted."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from sqlalchemy import ColumnElement, delete
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import SurveyLink, SurveyResponse
from app.db.row_locks import lock_rows
from app.surveys.counters import Counted, move_counts


async def forget_responses(session: AsyncSession, where: Iterable[ColumnElement[bool]]) -> int:
    """Delete the responses matching `where` (at most what one statement should hold: callers batch)."""
    rows = await lock_rows(session, SurveyResponse, list(where), [SurveyResponse.id])
    if not rows:
        return 0
    await move_counts(session, [Counted.of(row) for row in rows], [])
    await session.execute(delete(SurveyResponse).where(SurveyResponse.id.in_([row.id for row in rows])))
    for row in rows:
        session.expunge(row)
    return len(rows)


async def forget_links(session: AsyncSession, project_ids: Iterable[UUID], user_id: str) -> int:
    """Delete the survey links made for this user in these projects."""
    result = await session.execute(
        delete(SurveyLink).where(SurveyLink.project_id.in_(list(project_ids)), SurveyLink.user_id == user_id)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
