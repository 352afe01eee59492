"""The feedback inbox: filters, pages, status changed in place from the row, a detail view with the
history and a resolution note, archive and restore, bulk status change. Every role may triage.

All reads and changes go through FeedbackItems, the service the REST API uses."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest

from admin_ui.listing import PAGE_SIZE, Pages, choice, page_number
from admin_ui.rendering import go_to, render
from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType, Project
from app.dependencies import provide_feedback_items
from app.errors import InvalidRequest
from app.schemas.feedback_requests import FeedbackCreateBody, FeedbackPatchBody
from app.schemas.pagination import Pagination
from app.services.feedback_items import FeedbackChanges, FeedbackFilter, FeedbackItems
from tenants.members import Members
from tenants.permissions import needs
from tenants.scope import Access

TRIAGE = needs(Access.WRITE)
ADMIN = needs(Access.ADMIN)
FILTERS = ("status", "type", "source", "path", "search", "archived")
STATUSES = [s.value for s in FeedbackStatus]
TYPES = [t.value for t in FeedbackType]
SOURCES = [s.value for s in FeedbackSource]


def checked_changes(form: dict[str, Any]) -> FeedbackChanges:
    """The same rules as a PATCH body, so the console cannot store what the API would refuse."""
    try:
        body = msgspec.convert(form, FeedbackPatchBody)
    except msgspec.ValidationError as exc:
        field = str(exc).rsplit("$.", 1)[-1].rstrip("`") if "$." in str(exc) else "body"
        raise InvalidRequest(field, str(exc).split(" - at ")[0]) from None
    return {k: v for k, v in msgspec.structs.asdict(body).items() if v is not msgspec.UNSET}  # type: ignore[return-value]


def feedback_filter(query: dict[str, str]) -> FeedbackFilter:
    """The inbox's filters from its query string (the list and its downloads read the same)."""
    return FeedbackFilter(
        status=choice(query.get("status"), STATUSES, "status"),
        type=choice(query.get("type"), TYPES, "type"),
        source=choice(query.get("source"), SOURCES, "source"),
        path=query.get("path", "").strip() or None,
        search=query.get("search", "").strip() or None,
        archived=query.get("archived") == "true",
    )


def feedback_url(project: Project, item: FeedbackItem | None = None) -> str:
    base = f"/projects/{project.id}/feedback"
    return f"{base}/{item.id}" if item else base


async def form_dict(request: HTMXRequest, *fields: str) -> dict[str, Any]:
    form = await request.form()
    return {name: form.get(name) for name in fields if name in form}


class FeedbackController(Controller):
    path = "/projects/{project_id:str}/feedback"
    include_in_schema = False
    dependencies = {"feedback_items": Provide(provide_feedback_items)}

    async def _list(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, **extra: Any
    ) -> Any:
        query = {name: request.query_params.get(name, "") for name in FILTERS}
        where = feedback_filter(query)
        page = page_number(request.query_params.get("page"))
        items, total = await feedback_items.list(where, page=page, limit=PAGE_SIZE)
        pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), feedback_url(project), query)
        return render(
            request,
            "feedback.html",
            fragment="partials/_feedback_list.html",
            project=project,
            items=items,
            pages=pages,
            filters=query,
            statuses=STATUSES,
            types=TYPES,
            sources=SOURCES,
            **extra,
        )

    @get("/")
    async def inbox(self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems) -> Any:
        return await self._list(request, project, feedback_items)

    @get("/new", opt=TRIAGE)
    async def new_page(self, request: HTMXRequest, project: Project) -> Any:
        return render(request, "feedback_new.html", project=project, types=TYPES, values={}, errors={})

    @post("/new", opt=TRIAGE)
    async def create(self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems) -> Any:
        """Feedback typed in by a member (source Manual), with the API's rules for its message and type."""
        form = await form_dict(request, "message", "type")
        try:
            body = msgspec.convert(
                {"message": form.get("message", "").strip(), "type": form.get("type") or "Other"},
                FeedbackCreateBody,
            )
        except msgspec.ValidationError as exc:
            field = "type" if "type" in str(exc) else "message"
            return render(
                request,
                "feedback_new.html",
                status_code=400,
                project=project,
                types=TYPES,
                values=form,
                errors={field: str(exc).split(" - at ")[0]},
            )
        item = await feedback_items.create(message=body.message, type=body.type, source=FeedbackSource.MANUAL)
        return go_to(request, feedback_url(project, item))

    @post("/bulk", opt=TRIAGE)
    async def bulk_status(self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems) -> Any:
        form = await request.form()
        changes = checked_changes({"status": form.get("status") or None})
        ids = []
        for value in form.getall("ids") if "ids" in form else []:
            try:
                ids.append(UUID(value))
            except ValueError:
                raise InvalidRequest("ids", f"{value!r:.40} is not a feedback id") from None
        changed = await feedback_items.update_many(ids, changes) if ids else []
        if request.htmx:
            return await self._list(request, project, feedback_items, bulk_changed=len(changed))
        back = request.url.query
        return go_to(request, feedback_url(project) + (f"?{back}" if back else ""))

    @get("/{feedback_id:uuid}")
    async def detail(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        return await self._detail(request, project, feedback_items, await feedback_items.get(feedback_id))

    async def _detail(
        self,
        request: HTMXRequest,
        project: Project,
        feedback_items: FeedbackItems,
        item: FeedbackItem,
        *,
        status_code: int = 200,
        **extra: Any,
    ) -> Any:
        history = await feedback_items.history(item)
        return render(
            request,
            "feedback_item.html",
            fragment="partials/_feedback_detail.html",
            status_code=status_code,
            project=project,
            item=item,
            history=history,
            emails=await feedback_items.assignee_emails(history),
            members=await Members(feedback_items.session, feedback_items.scope).list(),
            statuses=STATUSES,
            types=TYPES,
            errors=extra.pop("errors", {}),
            **extra,
        )

    @post("/{feedback_id:uuid}", opt=TRIAGE)
    async def update(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        form = await form_dict(request, "status", "type", "resolution_note", "assignee")
        if "resolution_note" in form:
            form["resolution_note"] = form["resolution_note"].strip() or None
        if "assignee" in form:
            form["assignee"] = form["assignee"] or None
        try:
            await feedback_items.update(item, checked_changes(form))
        except InvalidRequest as exc:
            return await self._detail(
                request, project, feedback_items, item, status_code=400, errors={exc.field: exc.details}
            )
        return await self._detail(request, project, feedback_items, item, saved=True)

    @post("/{feedback_id:uuid}/status", opt=TRIAGE)
    async def row_status(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        """The status select of one inbox row: answers with the row itself."""
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, checked_changes(await form_dict(request, "status")))
        if request.htmx:
            return render(
                request,
                "partials/_feedback_row.html",
                project=project,
                item=item,
                statuses=STATUSES,
                row_saved=True,
            )
        return go_to(request, feedback_url(project))

    @post("/{feedback_id:uuid}/archive", opt=TRIAGE)
    async def archive(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, {"archived": True})
        return await self._detail(request, project, feedback_items, item)

    @post("/{feedback_id:uuid}/restore", opt=TRIAGE)
    async def restore(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        await feedback_items.update(item, {"archived": False})
        return await self._detail(request, project, feedback_items, item)

    @get("/{feedback_id:uuid}/delete", opt=ADMIN)
    async def purge_page(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        item = await feedback_items.get(feedback_id)
        return render(
            request,
            "purge_confirm.html",
            project=project,
            what="feedback item",
            excerpt=item.message,
            action=f"{feedback_url(project, item)}/delete",
            back=feedback_url(project, item),
        )

    @post("/{feedback_id:uuid}/delete", opt=ADMIN)
    async def purge(
        self, request: HTMXRequest, project: Project, feedback_items: FeedbackItems, feedback_id: UUID
    ) -> Any:
        await feedback_items.purge(await feedback_items.get(feedback_id))
        return go_to(request, feedback_url(project))
