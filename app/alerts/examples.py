"""Up to three feedback items that show what an alert is about, newest first: its page's or version's
items, the theme's, or those of the spike's hours."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.finding import Finding
from app.db.models import FeedbackItem
from app.insights.shown_items import shown

EXAMPLES = 3
EXCERPT = 300


async def examples_of(session: AsyncSession, project_id: UUID, finding: Finding) -> list[dict[str, Any]]:
    where = [FeedbackItem.project_id == project_id]
    if finding.example_ids:
        where.append(FeedbackItem.id.in_([UUID(i) for i in finding.example_ids]))
    elif finding.examples_where:
        where.extend(finding.examples_where)
    else:
        return []
    rows = await session.execute(
        select(FeedbackItem.id, FeedbackItem.message)
        .where(*shown(where))
        .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
        .limit(EXAMPLES)
    )
    return [{"id": str(item_id), "message": _excerpt(message)} for item_id, message in rows.tuples()]


def _excerpt(message: str) -> str:
    return message if len(message) <= EXCERPT else message[: EXCERPT - 1] + "…"
