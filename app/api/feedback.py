"""Feedback items of a project: list, read, create, change, archive and the change history."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, delete, get, patch, post
from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import Parameter
from litestar.response import Stream

from app.api.paging import Limit, Page
from app.api.parameters import Purge
from app.compression import SKIP_COMPRESSION
from app.db.models import FeedbackSource, Project
from app.db.models.field_rules import PATH_MAX_LENGTH
from app.dependencies import provide_feedback_items
from app.errors import error_responses
from app.exports import FEEDBACK, ExportFormat, export_response
from app.schemas.feedback import (
    FeedbackChangeOut,
    FeedbackHistory,
    FeedbackList,
    FeedbackOut,
    FeedbackSourceName,
)
from app.schemas.feedback_requests import (
    FeedbackCreateBody,
    FeedbackPatchBody,
    FeedbackStatusName,
    FeedbackTypeName,
)
from app.schemas.pagination import Pagination
from app.services.feedback_items import (
    FeedbackChanges,
    FeedbackFilter,
    FeedbackItems,
    FeedbackSort,
    feedback_order,
)
from app.services.projects import parse_uuid


async def provide_feedback_filter(
    status: FeedbackStatusName | None = None,
    type: FeedbackTypeName | None = None,
    source: FeedbackSourceName | None = None,
    path: Annotated[str | None, Parameter(max_length=PATH_MAX_LENGTH, description="Exact page path.")] = None,
    search: Annotated[
        str | None, Parameter(max_length=200, description="Case-insensitive substring of the message.")
    ] = None,
    archived: bool = False,
) -> FeedbackFilter:
    """The filters the list and the export share."""
    return FeedbackFilter(
        status=status, type=type, source=source, path=path, search=search, archived=archived
    )


class FeedbackController(Controller):
    path = "/projects/{project_id:str}/feedback"
    tags = ["Feedback"]
    dependencies = {
        "feedback_items": Provide(provide_feedback_items),
        "where": Provide(provide_feedback_filter),
    }

    @get("/", summary="List feedback items", responses=error_responses(400, 401, 403, 404))
    async def list_feedback(
        self,
        feedback_items: FeedbackItems,
        where: FeedbackFilter,
        page: Page = 1,
        limit: Limit = 20,
        sort: FeedbackSort = "-created_at",
    ) -> FeedbackList:
        """Filters combine; archived items are listed only with archived=true."""
        items, total = await feedback_items.list(where, sort=sort, page=page, limit=limit)
        return FeedbackList(
            feedback=[FeedbackOut.of(item) for item in items],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/export",
        summary="Export feedback items as CSV or NDJSON, with the list's filters and order (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True},
    )
    async def export_feedback(
        self,
        project: Project,
        where: FeedbackFilter,
        state: State,
        sort: FeedbackSort = "-created_at",
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching item in one download, read from a cursor as it is sent; CSV cells that
        a spreadsheet would run as formulas are defused."""
        query = FEEDBACK.select().where(*where.conditions(project.id)).order_by(*feedback_order(sort))
        return export_response(state.session_maker, project, FEEDBACK, query, format)

    @post(
        "/",
        summary="Create a feedback item (source Manual)",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def create_feedback(self, data: FeedbackCreateBody, feedback_items: FeedbackItems) -> FeedbackOut:
        """Stores an item entered by hand (source Manual), status New unless another is given."""
        item = await feedback_items.create(
            message=data.message,
            type=data.type,
            status=data.status,
            source=FeedbackSource.MANUAL,
            path=data.path,
            version=data.version,
            submitted_by=data.submitted_by,
            metadata=data.metadata,
        )
        return FeedbackOut.of(item)

    @get("/{feedback_id:str}", summary="Get one feedback item", responses=error_responses(400, 401, 403, 404))
    async def get_feedback(self, feedback_id: str, feedback_items: FeedbackItems) -> FeedbackOut:
        """One feedback item of the project, archived or not."""
        return FeedbackOut.of(await feedback_items.get(parse_uuid(feedback_id, "feedback_id")))

    @patch(
        "/{feedback_id:str}",
        summary="Change message, type, status, resolution note or archived; each change is recorded",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_feedback(
        self, feedback_id: str, data: FeedbackPatchBody, feedback_items: FeedbackItems
    ) -> FeedbackOut:
        """Only the fields sent change; every change is recorded in the item's history."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        changes: FeedbackChanges = {
            key: value  # type: ignore[misc]
            for key, value in msgspec.structs.asdict(data).items()
            if value is not msgspec.UNSET
        }
        return FeedbackOut.of(await feedback_items.update(item, changes))

    @delete(
        "/{feedback_id:str}",
        summary="Archive a feedback item (idempotent), or with purge=true delete it for good",
        responses=error_responses(400, 401, 403, 404),
    )
    async def archive_feedback(
        self, feedback_id: str, feedback_items: FeedbackItems, purge: Purge = False
    ) -> None:
        """Sets archived: the item stays readable and PATCH archived=false restores it. purge=true deletes
        it with its history instead, off every count, and cannot be undone."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        await (feedback_items.purge(item) if purge else feedback_items.archive(item))

    @get(
        "/{feedback_id:str}/history",
        summary="Recorded changes of a feedback item, oldest first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def feedback_history(self, feedback_id: str, feedback_items: FeedbackItems) -> FeedbackHistory:
        """Each change with the field, old and new value, who changed it and when."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        return FeedbackHistory(history=[FeedbackChangeOut.of(c) for c in await feedback_items.history(item)])
