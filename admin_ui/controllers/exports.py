"""Downloads of a project's feedback, ratings and contact messages as CSV or NDJSON, with the filters
the page shows, through the same streamed exports as the API."""

from __future__ import annotations

from litestar import Controller, Request, get
from litestar.response import Stream

from admin_ui.controllers.feedback import FILTERS, feedback_filter
from admin_ui.controllers.ratings import rating_path
from admin_ui.listing import choice
from app.compression import SKIP_COMPRESSION
from app.db.models import ContactMessage, Project, Rating
from app.db.read_routing import REPLICA_READS, read_sessions
from app.exports import CONTACT_MESSAGES, FEEDBACK, RATINGS, ExportFormat, export_response
from app.services.contact_messages import contact_conditions
from app.services.feedback_items import feedback_order
from app.services.ratings import rating_conditions

FORMATS = ("csv", "ndjson")


def export_format(request: Request) -> ExportFormat:  # type: ignore[type-arg]
    return choice(request.query_params.get("format"), FORMATS, "format") or "csv"  # type: ignore[return-value]


class ExportsController(Controller):
    path = "/projects/{project_id:str}"
    include_in_schema = False
    opt = {SKIP_COMPRESSION: True, **REPLICA_READS}

    @get("/feedback/export")
    async def feedback(self, request: Request, project: Project) -> Stream:  # type: ignore[type-arg]
        where = feedback_filter({name: request.query_params.get(name, "") for name in FILTERS})
        query = (
            FEEDBACK.select().where(*where.conditions(project.id)).order_by(*feedback_order("-created_at"))
        )
        return export_response(
            await read_sessions(request),
            project,
            FEEDBACK,
            query,
            export_format(request),
            request.app.state.settings.base_url,
        )

    @get("/ratings/export")
    async def ratings(self, request: Request, project: Project) -> Stream:  # type: ignore[type-arg]
        where = rating_conditions(project.id, path=rating_path(request.query_params.get("path", "")))
        query = RATINGS.select().where(*where).order_by(Rating.created_at.desc(), Rating.id.desc())
        return export_response(await read_sessions(request), project, RATINGS, query, export_format(request))

    @get("/contact/export")
    async def contact(self, request: Request, project: Project) -> Stream:  # type: ignore[type-arg]
        where = contact_conditions(
            project.id,
            search=request.query_params.get("search", "").strip() or None,
            archived=request.query_params.get("archived") == "true",
        )
        query = (
            CONTACT_MESSAGES.select()
            .where(*where)
            .order_by(ContactMessage.created_at.desc(), ContactMessage.id.desc())
        )
        return export_response(
            await read_sessions(request), project, CONTACT_MESSAGES, query, export_format(request)
        )
