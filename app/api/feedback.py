"""Feedback items of a project: list, read, create, change, archive and the change history."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, delete, get, patch, post
from litestar.di import Provide
from litestar.params import Parameter
from litestar.response import Stream

from app.api.paging import Limit, Page
from app.api.parameters import Purge, SpamFilter, VerifiedFilter
from app.compression import SKIP_COMPRESSION
from app.db.ids import parse_uuid
from app.db.models import FeedbackSource, Project
from app.db.models.field_rules import PATH_MAX_LENGTH
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide
from app.errors import error_responses
from app.exports import FEEDBACK, ExportFormat, export_response
from app.exports.attachments import attachment_response
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
from app.schemas.insights import SimilarFeedback
from app.services.attachments import FeedbackAttachments
from app.services.feedback_bodies import feedback_out, feedback_page, similar_items
from app.services.feedback_items import (
    FeedbackChanges,
    FeedbackFilter,
    FeedbackItems,
    FeedbackSort,
    feedback_order,
)
from app.services.insights import MAX_SIMILAR, SEMANTIC_MAX_LENGTH, Insights

Semantic = Annotated[
    str | None,
    Parameter(
        max_length=SEMANTIC_MAX_LENGTH,
        description="Order by closeness in meaning to this text, nearest first, in any language (the sort "
        "does not apply; the other filters and paging do). Lists the project's nearest items, 1,000 at "
        "most; items whose vector is pending are not found yet. 503 when insights are unavailable.",
    ),
]
ThemeFilter = Annotated[
    str | None, Parameter(description="Only the items of this theme (GET /projects/{project_id}/themes).")
]
SimilarLimit = Annotated[
    int, Parameter(ge=1, le=MAX_SIMILAR, description=f"How many similar items, at most {MAX_SIMILAR}.")
]


async def provide_feedback_filter(
    status: FeedbackStatusName | None = None,
    type: FeedbackTypeName | None = None,
    source: FeedbackSourceName | None = None,
    path: Annotated[str | None, Parameter(max_length=PATH_MAX_LENGTH, description="Exact page path.")] = None,
    search: Annotated[
        str | None, Parameter(max_length=200, description="Case-insensitive substring of the message.")
    ] = None,
    archived: bool = False,
    verified: VerifiedFilter = None,
    spam: SpamFilter = False,
) -> FeedbackFilter:
    """The filters the list and the export share."""
    return FeedbackFilter(
        status=status,
        type=type,
        source=source,
        path=path,
        search=search,
        archived=archived,
        verified=verified,
        spam=spam,
    )


class FeedbackController(Controller):
    path = "/projects/{project_id:str}/feedback"
    tags = ["Feedback"]
    dependencies = {
        "feedback_items": provide(FeedbackItems),
        "feedback_attachments": provide(FeedbackAttachments),
        "insights": provide(Insights),
        "where": Provide(provide_feedback_filter),
    }

    @get(
        "/",
        summary="List feedback items",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_feedback(
        self,
        feedback_items: FeedbackItems,
        where: FeedbackFilter,
        insights: Insights,
        page: Page = 1,
        limit: Limit = 20,
        sort: FeedbackSort = "-created_at",
        semantic: Semantic = None,
        theme: ThemeFilter = None,
    ) -> FeedbackList:
        """Filters combine; archived items are listed only with archived=true."""
        if theme is not None:
            where = replace(where, theme=(await insights.theme(theme)).id)
        if semantic is not None:
            where = replace(where, semantic=semantic)
        items, total = await feedback_items.list(where, sort=sort, page=page, limit=limit)
        return await feedback_page(feedback_items, items, page=page, limit=limit, total=total)

    @get(
        "/export",
        summary="Export feedback items as CSV or NDJSON, with the list's filters and order (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True, **REPLICA_READS},
    )
    async def export_feedback(
        self,
        project: Project,
        where: FeedbackFilter,
        request: Request[Any, Any, Any],
        sort: FeedbackSort = "-created_at",
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching item in one download, read from a cursor as it is sent; CSV cells that
        a spreadsheet would run as formulas are defused."""
        query = FEEDBACK.select().where(*where.conditions(project.id)).order_by(*feedback_order(sort))
        return export_response(
            await read_sessions(request),
            project,
            FEEDBACK,
            query,
            format,
            request.app.state.settings.base_url,
        )

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
        return await feedback_out(
            feedback_items, await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        )

    @patch(
        "/{feedback_id:str}",
        summary="Change message, type, status, resolution note, archived, assignee, duplicate_of or spam; "
        "each change is recorded",
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
        return await feedback_out(feedback_items, await feedback_items.update(item, changes))

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
        "/{feedback_id:str}/similar",
        summary="Feedback items most similar in meaning to this one",
        responses=error_responses(400, 401, 403, 404, 503),
    )
    async def similar_feedback(
        self, feedback_id: str, feedback_items: FeedbackItems, insights: Insights, limit: SimilarLimit = 5
    ) -> SimilarFeedback:
        """Most similar first, in any language; the item itself, archived items and items marked as
        duplicates are left out. 503 `unavailable` when insights are turned off or the model failed."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        return await similar_items(feedback_items, insights, item, limit)

    @get(
        "/{feedback_id:str}/attachments/{attachment_id:str}",
        summary="Download an image attached to a feedback item",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True},
    )
    async def get_attachment(
        self, feedback_id: str, attachment_id: str, feedback_attachments: FeedbackAttachments
    ) -> Response[Any]:
        """The image as stored (re-encoded without metadata), shown inline, never sniffed as another type,
        under a sandboxing Content-Security-Policy; the item's `attachments` list what there is."""
        attachment = await feedback_attachments.image(
            parse_uuid(feedback_id, "feedback_id"), parse_uuid(attachment_id, "attachment_id")
        )
        return attachment_response(attachment)

    @get(
        "/{feedback_id:str}/history",
        summary="Recorded changes of a feedback item, oldest first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def feedback_history(self, feedback_id: str, feedback_items: FeedbackItems) -> FeedbackHistory:
        """Each change with the field, old and new value, who changed it and when."""
        item = await feedback_items.get(parse_uuid(feedback_id, "feedback_id"))
        return FeedbackHistory(history=[FeedbackChangeOut.of(c) for c in await feedback_items.history(item)])
