"""Contact messages: list with search, detail with its thread, reply, archive, through the services the
API uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.controllers.conversations import conversation_of
from admin_ui.forms import Form, field_error
from admin_ui.listing import PAGE_SIZE, Pages, page_number
from admin_ui.rendering import go_to, render
from app.db.models import Project, SubjectKind
from app.db.models.field_rules import MESSAGE_MAX_LENGTH
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import InvalidRequest
from app.schemas.pagination import Pagination
from app.services.contact_messages import ContactMessages
from app.services.contact_replies import ContactReplies
from tenants.permissions import needs
from tenants.scope import Access


@dataclass
class ReplyForm:
    message: str = ""


class ContactController(Controller):
    path = "/projects/{project_id:str}/contact"
    include_in_schema = False
    dependencies = {
        "contact_messages": provide(ContactMessages),
        "contact_replies": provide(ContactReplies),
    }

    @get("/", opt=REPLICA_READS)
    async def messages(
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages
    ) -> Any:
        query = {name: request.query_params.get(name, "") for name in ("search", "archived")}
        page = page_number(request.query_params.get("page"))
        records, total = await contact_messages.list(
            search=query["search"].strip() or None,
            archived=query["archived"] == "true",
            page=page,
            limit=PAGE_SIZE,
        )
        pages = Pages(
            Pagination.of(page=page, limit=PAGE_SIZE, total=total), f"/projects/{project.id}/contact", query
        )
        return render(
            request,
            "contact.html",
            fragment="partials/_contact_list.html",
            project=project,
            records=records,
            pages=pages,
            filters=query,
        )

    @get("/{message_id:uuid}")
    async def detail(
        self,
        request: HTMXRequest,
        project: Project,
        contact_messages: ContactMessages,
        contact_replies: ContactReplies,
        message_id: UUID,
    ) -> Any:
        record = await contact_messages.get(message_id)
        return await self._page(request, project, record, contact_replies)

    @post("/{message_id:uuid}/replies", opt=needs(Access.WRITE))
    async def reply(
        self,
        request: HTMXRequest,
        project: Project,
        contact_messages: ContactMessages,
        contact_replies: ContactReplies,
        message_id: UUID,
        data: Form[ReplyForm],
    ) -> Any:
        """Any member may answer; the reply is mailed and the page shows it in the thread."""
        record = await contact_messages.get(message_id)
        if len(data.message) > MESSAGE_MAX_LENGTH:
            error = {"message": f"At most {MESSAGE_MAX_LENGTH} characters"}
            return await self._page(
                request, project, record, contact_replies, 400, errors=error, draft=data.message
            )
        try:
            await contact_replies.reply(record, data.message)
        except InvalidRequest as exc:
            return await self._page(
                request, project, record, contact_replies, 400, errors=field_error(exc), draft=data.message
            )
        return go_to(request, f"/projects/{project.id}/contact/{record.id}?replied=1")

    async def _page(
        self,
        request: HTMXRequest,
        project: Project,
        record: Any,
        contact_replies: ContactReplies,
        status_code: int = 200,
        **extra: Any,
    ) -> Any:
        return render(
            request,
            "contact_message.html",
            status_code=status_code,
            project=project,
            record=record,
            replies=await contact_replies.thread(record),
            conversation=await conversation_of(
                contact_replies, project, SubjectKind.CONTACT_MESSAGE, record.id
            ),
            replied=request.query_params.get("replied") == "1",
            errors=extra.pop("errors", {}),
            **extra,
        )

    @post("/{message_id:uuid}/archive", opt=needs(Access.WRITE))
    async def archive(
        self,
        request: HTMXRequest,
        project: Project,
        contact_messages: ContactMessages,
        contact_replies: ContactReplies,
        message_id: UUID,
    ) -> Any:
        record = await contact_messages.get(message_id)
        await contact_messages.archive(record)
        return await self._page(request, project, record, contact_replies, archived_now=True)

    @get("/{message_id:uuid}/delete", opt=needs(Access.ADMIN))
    async def purge_page(
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages, message_id: UUID
    ) -> Any:
        record = await contact_messages.get(message_id)
        url = f"/projects/{project.id}/contact/{record.id}"
        return render(
            request,
            "purge_confirm.html",
            project=project,
            what="contact message",
            excerpt=record.message,
            action=f"{url}/delete",
            back=url,
        )

    @post("/{message_id:uuid}/delete", opt=needs(Access.ADMIN))
    async def purge(
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages, message_id: UUID
    ) -> Any:
        await contact_messages.purge(await contact_messages.get(message_id))
        return go_to(request, f"/projects/{project.id}/contact")
