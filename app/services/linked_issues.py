"""Issues filed in a tracker for a project's feedback items: kept on the item so it shows them, and so a
tracker's webhook finds the item its issue was filed for."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from uuid import UUID

from sqlalchemy import select

from app.db.models import FeedbackItem, LinkedIssue
from app.services.projects import ProjectScoped


class LinkedIssues(ProjectScoped):
    async def of_items(self, feedback_ids: Iterable[UUID]) -> dict[UUID, list[LinkedIssue]]:
        """Each item's issues in the order they were filed."""
        ids = list(feedback_ids)
        found: dict[UUID, list[LinkedIssue]] = {}
        if not ids:
            return found
        rows = await self.session.scalars(
            select(LinkedIssue)
            .where(LinkedIssue.project_id == self.project.id, LinkedIssue.feedback_id.in_(ids))
            .order_by(LinkedIssue.created_at, LinkedIssue.id)
        )
        for row in rows:
            found.setdefault(row.feedback_id, []).append(row)
        return found

    async def link(self, item: FeedbackItem, tracker: str, key: str, url: str) -> LinkedIssue:
        issue = LinkedIssue(
            project_id=self.project.id, feedback_id=item.id, tracker=tracker, key=key, url=url, state="open"
        )
        self.session.add(issue)
        await self.session.flush()
        return issue

    async def find(self, tracker: str, key: str) -> LinkedIssue | None:
        found: LinkedIssue | None = await self.session.scalar(
            select(LinkedIssue).where(
                LinkedIssue.project_id == self.project.id,
                LinkedIssue.tracker == tracker,
                LinkedIssue.key == key,
            )
        )
        return found

    @staticmethod
    def follow(issue: LinkedIssue, state: str, changed_at: datetime) -> bool:
        """Take the tracker's state of the issue as of `changed_at`; False (nothing taken) when the
        change last taken was made later, so a late or replayed delivery cannot undo a newer one."""
        if issue.changed_at is not None and changed_at < issue.changed_at:
            return False
        issue.state, issue.changed_at = state, changed_at
        return True
