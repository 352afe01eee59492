"""Ratings of a project: create (helpful and typed), list, read one, archive."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post
from litestar.di import Provide
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.paging import Limit, Page
from app.api.parameters import PathFilter, TypeFilter
from app.db.models import Project, RatingType
from app.errors import error_responses
from app.ingest import helpful_input, typed_input
from app.schemas.pagination import Pagination
from app.schemas.rating import RatingList, RatingOut, TypedRatingList, TypedRatingOut
from app.schemas.rating_requests import HelpfulRatingBody, TypedRatingBody
from app.services.ratings import Ratings
from app.strict_body import strict_body


async def provide_ratings(db_session: AsyncSession, project: Project) -> Ratings:
    return Ratings(db_session, project)


class RatingController(Controller):
    path = "/projects/{project_id:str}/ratings"
    tags = ["Ratings"]
    dependencies = {"ratings": Provide(provide_ratings)}

    @post(
        "/",
        status_code=200,
        summary="Create a helpful rating",
        responses=error_responses(400, 401, 403, 404, 413),
    )
    async def create_helpful(
        self, data: HelpfulRatingBody, request: Request[Any, Any, Any], ratings: Ratings
    ) -> RatingOut:
        body = await strict_body(request, data)
        return RatingOut.of(await ratings.create(helpful_input(body)))

    @post(
        "/typed",
        status_code=201,
        summary="Create a helpful, star or nps rating",
        responses=error_responses(400, 401, 403, 404, 413),
    )
    async def create_typed(
        self, data: TypedRatingBody, request: Request[Any, Any, Any], ratings: Ratings
    ) -> TypedRatingOut:
        body = await strict_body(request, data)
        return TypedRatingOut.of(await ratings.create(typed_input(body)))

    @get(
        "/",
        summary="List helpful ratings, newest first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_helpful(
        self,
        ratings: Ratings,
        page: Page = 1,
        limit: Limit = 20,
        value: bool | None = None,
        path: PathFilter = None,
    ) -> RatingList:
        items, total = await ratings.page(
            RatingType.HELPFUL, page=page, limit=limit, path=path, value=None if value is None else int(value)
        )
        return RatingList(
            ratings=[RatingOut.of(r) for r in items],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/typed",
        summary="List ratings of one type in the typed form, newest first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_typed(
        self,
        ratings: Ratings,
        type: TypeFilter = RatingType.HELPFUL,
        path: PathFilter = None,
        page: Page = 1,
        limit: Limit = 20,
    ) -> TypedRatingList:
        items, total = await ratings.page(type, page=page, limit=limit, path=path)
        return TypedRatingList(
            ratings=[TypedRatingOut.of(r) for r in items],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/{rating_id:str}",
        summary="Get one rating (typed form; archived ones too, with archived true)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_rating(self, rating_id: str, ratings: Ratings) -> TypedRatingOut:
        return TypedRatingOut.of(await ratings.get(rating_id))

    @delete(
        "/{rating_id:str}",
        status_code=204,
        summary="Archive a rating (soft delete; idempotent)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def archive_rating(self, rating_id: str, ratings: Ratings) -> None:
        await ratings.archive(rating_id)
