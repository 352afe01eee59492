"""What the team reads beside an idea in the console: the ideas that say the same by meaning (to merge),
the ideas merged into it, the feedback items linked to it as demand, the idea a feedback item is linked
to, and the short lists its pickers offer (link a feedback item, name ideas in a changelog entry).
Changes go through `Ideas` and `Changelog`; this only reads, always within the one project."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from sqlalchemy import func, or_, select

from app.db.models import FeedbackItem, Idea, IdeaDemand, IdeaStatus
from app.ideas.similar import idea_text, similar_ideas
from app.services.projects import ProjectScoped

PICKER_LIMIT = 200
"""The most ideas a picker lists (most votes first); a project with more finds the rest by search."""
SHIPPING = (IdeaStatus.PLANNED.value, IdeaStatus.IN_PROGRESS.value, IdeaStatus.DONE.value)
"""What a changelog entry usually names."""


class IdeaTriage(ProjectScoped):
    async def similar_to(self, idea: Idea, limit: int = 5) -> list[tuple[Idea, float]]:
        """Other ideas of the project nearest in meaning (pending ones too), best first; none when
        insights are off or the vectors are not computed yet."""
        return await similar_ideas(
            self.session,
            self.scope.org_id,
            self.project.id,
            idea_text(idea),
            limit=limit,
            exclude=idea.id,
            include_pending=True,
        )

    async def titled(self, text: str, exclude: UUID, limit: int = 10) -> list[Idea]:
        """Ideas whose title has `text` (merge targets found by words), most votes first."""
        clean = text.strip().lower()
        if not clean:
            return []
        rows = await self.session.scalars(
            self._mergeable(exclude)
            .where(func.lower(Idea.title).contains(clean, autoescape=True))
            .order_by(Idea.vote_count.desc(), Idea.id)
            .limit(limit)
        )
        return list(rows)

    def _mergeable(self, exclude: UUID | None = None) -> Any:
        where = [Idea.project_id == self.project.id, Idea.merged_into_id.is_(None), Idea.spam.is_(False)]
        if exclude is not None:
            where.append(Idea.id != exclude)
        return select(Idea).where(*where)

    async def merged_into(self, idea: Idea) -> list[Idea]:
        """The duplicates merged into this idea."""
        rows = await self.session.scalars(
            select(Idea)
            .where(Idea.project_id == self.project.id, Idea.merged_into_id == idea.id)
            .order_by(Idea.created_at)
        )
        return list(rows)

    async def demand(self, idea: Idea, limit: int = 50) -> list[FeedbackItem]:
        """The feedback items linked to the idea, newest first."""
        rows = await self.session.scalars(
            select(FeedbackItem)
            .join(IdeaDemand, IdeaDemand.feedback_id == FeedbackItem.id)
            .where(IdeaDemand.idea_id == idea.id, IdeaDemand.project_id == self.project.id)
            .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
            .limit(limit)
        )
        return list(rows)

    async def idea_of(self, feedback_id: UUID) -> Idea | None:
        """The idea a feedback item counts as demand for, if any."""
        return await self.session.scalar(
            select(Idea)
            .join(IdeaDemand, IdeaDemand.idea_id == Idea.id)
            .where(IdeaDemand.feedback_id == feedback_id, IdeaDemand.project_id == self.project.id)
        )

    async def linkable(self) -> list[Idea]:
        """Ideas a feedback item may be linked to: not merged, not spam, not declined."""
        rows = await self.session.scalars(
            self._mergeable()
            .where(Idea.status != IdeaStatus.DECLINED.value)
            .order_by(Idea.vote_count.desc(), Idea.title, Idea.id)
            .limit(PICKER_LIMIT)
        )
        return list(rows)

    async def for_changelog(self, named: Sequence[UUID] = ()) -> list[Idea]:
        """Ideas a changelog entry may name: planned, in progress or done, and those it names already."""
        wanted = Idea.status.in_(SHIPPING)
        if named:
            wanted = or_(wanted, Idea.id.in_(list(named)))
        rows = await self.session.scalars(
            self._mergeable()
            .where(wanted)
            .order_by(Idea.status, Idea.vote_count.desc(), Idea.id)
            .limit(PICKER_LIMIT)
        )
        return list(rows)

    async def by_ids(self, ids: Sequence[UUID]) -> dict[UUID, Idea]:
        if not ids:
            return {}
        rows = await self.session.scalars(
            select(Idea).where(Idea.project_id == self.project.id, Idea.id.in_(list(ids)))
        )
        return {idea.id: idea for idea in rows}
