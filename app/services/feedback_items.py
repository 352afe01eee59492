"""Feedback items of one project: every query here is filtered by that project."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType, Project


class FeedbackItems:
    def __init__(self, session: AsyncSession, project: Project, actor: str) -> None:
        self.session = session
        self.project = project
        self.actor = actor

    async def create(
        self,
        *,
        message: str,
        type: str = FeedbackType.OTHER,
        status: str = FeedbackStatus.NEW,
        source: str = FeedbackSource.MANUAL,
        path: str | None = None,
        version: str | None = None,
        submitted_by: str | None = None,
    ) -> FeedbackItem:
        """Store a new item and commit before returning."""
        item = FeedbackItem(
            project_id=self.project.id,
            message=message,
            type=str(type),
            status=str(status),
            source=str(source),
            path=path,
            version=version,
            submitted_by=submitted_by,
        )
        self.session.add(item)
        await self.session.commit()
        return item
