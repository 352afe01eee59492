"""The pages with the most "not helpful" votes, so a docs team sees where to work first. Read from the
exact all-time rating totals (archived ratings are already out of them)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select

from app.db.models import ALL_PATHS, RatingTotal, RatingType
from app.services.projects import ProjectScoped


@dataclass(frozen=True)
class PageVotes:
    path: str
    not_helpful: int
    helpful: int

    @property
    def percentage(self) -> float:
        total = self.helpful + self.not_helpful
        return round(100 * self.helpful / total, 1) if total else 0.0


class HelpfulPages(ProjectScoped):
    async def most_not_helpful(self, limit: int = 10) -> list[PageVotes]:
        not_helpful = func.sum(case((RatingTotal.value == 0, RatingTotal.count), else_=0))
        helpful = func.sum(case((RatingTotal.value == 1, RatingTotal.count), else_=0))
        rows = await self.session.execute(
            select(RatingTotal.path, not_helpful, helpful)
            .where(
                RatingTotal.project_id == self.project.id,
                RatingTotal.rating_type == RatingType.HELPFUL.value,
                RatingTotal.path != ALL_PATHS,
            )
            .group_by(RatingTotal.path)
            .having(not_helpful > 0)
            .order_by(not_helpful.desc(), RatingTotal.path)
            .limit(limit)
        )
        return [PageVotes(path, int(down), int(up)) for path, down, up in rows.tuples()]
