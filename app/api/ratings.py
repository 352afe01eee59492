"""Ratings of a project: create (helpful and typed), list, read one, archive."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.params import Parameter
from litestar.response import Stream

from app.api.paging import Limit, Page
from app.api.parameters import PathFilter, Since, TypeFilter, Until, VerifiedFilter
from app.compression import SKIP_COMPRESSION
from app.db.models import Project, Rating, RatingType
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide
from app.errors import error_responses
from app.exports import RATINGS, ExportFormat, export_response
from app.ingest import helpful_input, typed_input
from app.request_checks import strict_body
from app.schemas.pagination import Pagination
from app.schemas.rating import RatingList, RatingOut, TypedRatingList, TypedRatingOut
from app.schemas.rating_requests import HelpfulRatingBody, TypedRatingBody
from app.services.ratings import Ratings, rating_conditions
from app.services.time_bounds import parse_bounds


class RatingController(Controller):
    path = "/projects/{project_id:str}/ratings"
    tags = ["Ratings"]
    dependencies = {"ratings": provide(Ratings)}

    @post(
        "/",
        status_code=200,
        summary="Create a helpful rating",
        responses=error_responses(400, 401, 403, 404, 413),
    )
    async def create_helpful(
        self, data: HelpfulRatingBody, request: Request[Any, Any, Any], ratings: Ratings
    ) -> RatingOut:
        """Stored and counted in the statistics before the answer."""
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
        """The value's rules depend on the type; stored and counted before the answer."""
        body = await strict_body(request, data)
        return TypedRatingOut.of(await ratings.create(typed_input(body)))

    @get(
        "/",
        summary="List helpful ratings, newest first",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_helpful(
        self,
        ratings: Ratings,
        page: Page = 1,
        limit: Limit = 20,
        value: bool | None = None,
        path: PathFilter = None,
        verified: VerifiedFilter = None,
    ) -> RatingList:
        """Archived ratings are left out; value filters Yes (true) or No (false)."""
        items, total = await ratings.page(
            RatingType.HELPFUL,
            page=page,
            limit=limit,
            path=path,
            value=None if value is None else int(value),
            verified=verified,
        )
        return RatingList(
            ratings=[RatingOut.of(r) for r in items],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/typed",
        summary="List ratings of one type in the typed form, newest first",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_typed(
        self,
        ratings: Ratings,
        type: TypeFilter = RatingType.HELPFUL,
        path: PathFilter = None,
        page: Page = 1,
        limit: Limit = 20,
        verified: VerifiedFilter = None,
    ) -> TypedRatingList:
        """Archived ratings are left out."""
        items, total = await ratings.page(type, page=page, limit=limit, path=path, verified=verified)
        return TypedRatingList(
            ratings=[TypedRatingOut.of(r) for r in items],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/export",
        summary="Export ratings as CSV or NDJSON, newest first (streamed); every type unless type is given",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True, **REPLICA_READS},
    )
    async def export_ratings(
        self,
        project: Project,
        request: Request[Any, Any, Any],
        type: Annotated[
            RatingType | None, Parameter(description="helpful, star or nps; every type when absent.")
        ] = None,
        path: PathFilter = None,
        since: Since = None,
        until: Until = None,
        archived: Annotated[
            bool, Parameter(description="true exports the archived ratings instead.")
        ] = False,
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching rating in one download, read from a cursor as it is sent."""
        start, end = parse_bounds(since, until)
        where = rating_conditions(
            project.id, rating_type=type, path=path, since=start, until=end, archived=archived
        )
        query = RATINGS.select().where(*where).order_by(Rating.created_at.desc(), Rating.id.desc())
        return export_response(await read_sessions(request), project, RATINGS, query, format)

    @get(
        "/{rating_id:str}",
        summary="Get one rating (typed form; archived ones too, with archived true)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def get_rating(self, rating_id: str, ratings: Ratings) -> TypedRatingOut:
        """Any type; archived ratings too, marked archived."""
        return TypedRatingOut.of(await ratings.get(rating_id))

    @delete(
        "/{rating_id:str}",
        status_code=204,
        summary="Archive a rating (soft delete; idempotent)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def archive_rating(self, rating_id: str, ratings: Ratings) -> None:
        """An archived rating leaves the lists and statistics; archiving it again changes nothing."""
        await ratings.archive(rating_id)
