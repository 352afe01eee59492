"""Ratings of one project: create, list, read and archive. Every query here is filtered by that project."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import ColumnElement, false, func, select

from app.db.ids import parse_uuid
from app.db.models import Rating, RatingType
from app.db.paging import one_page
from app.errors import NotFound
from app.ingest import NewRating, RatingInput, add_ratings, archive_rating
from app.services.projects import ProjectScoped
from app.services.rating_stats import RatingStatistics


class Ratings(ProjectScoped):
    async def create(self, item: RatingInput) -> NewRating:
        """Store one rating with its counters in the caller's transaction."""
        [rating] = await add_ratings(self.session, [(self.project.id, item)])
        await self.session.flush()
        return rating

    async def page(
        self,
        rating_type: RatingType,
        *,
        page: int,
        limit: int,
        path: str | None = None,
        value: int | None = None,
        verified: bool | None = None,
    ) -> tuple[list[Rating], int]:
        """One page of non-archived ratings, newest first, and the exact total: from the counters, or
        counted from the rows for `verified`, which no counter keeps."""
        query = select(Rating).where(
            Rating.project_id == self.project.id,
            Rating.rating_type == str(rating_type),
            Rating.archived == false(),
        )
        if path is not None:
            query = query.where(Rating.path == path)
        if value is not None:
            query = query.where(Rating.value == value)
        if verified is None:
            statistics = RatingStatistics(self.session, self.scope, self.project)
            total = await statistics.counted_total(rating_type, path, value)
        else:
            query = query.where(Rating.submitted_by_verified == verified)
            total = await self.session.scalar(select(func.count()).select_from(query.subquery())) or 0
        return list(await self.session.scalars(one_page(query, Rating, page, limit))), total

    async def get(self, rating_id: str) -> Rating:
        """One rating of this project, archived or not; 404 when the project has no such rating."""
        ident = parse_uuid(rating_id, "rating_id")
        rating = await self.session.scalar(
            select(Rating).where(Rating.id == ident, Rating.project_id == self.project.id)
        )
        if rating is None:
            raise NotFound("no rating with this id in this project")
        return rating

    async def archive(self, rating_id: str) -> None:
        """Soft-delete; archiving an archived rating changes nothing (idempotent)."""
        await archive_rating(self.session, await self.get(rating_id))
        await self.session.flush()


def rating_conditions(
    project_id: UUID,
    *,
    rating_type: str | None = None,
    path: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    archived: bool = False,
) -> list[ColumnElement[bool]]:
    """Ratings of a project by type (every type when None), exact path and [since, until), archived or
    not: what an export selects."""
    where = [Rating.project_id == project_id, Rating.archived == archived]
    if rating_type is not None:
        where.append(Rating.rating_type == rating_type)
    if path is not None:
        where.append(Rating.path == path)
    if since is not None:
        where.append(Rating.created_at >= since)
    if until is not None:
        where.append(Rating.created_at < until)
    return where
