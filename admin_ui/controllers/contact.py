"""Contact messages: list with search, detail, archive, through the ContactMessages service the API uses."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.di import Provide
from litestar.plugins.htmx import HTMXRequest

from admin_ui.listing import PAGE_SIZE, Pages, page_number
from admin_ui.rendering import go_to, render
from app.db.models import Project
from app.dependencies import provide_contact_messages
from app.schemas.pagination import Pagination
from app.services.contact_messages import ContactMessages
from tenants.permissions import needs
from tenants.scope import Access


class ContactController(Controller):
    path = "/projects/{project_id:str}/contact"
    include_in_schema = False
    dependencies = {"contact_messages": Provide(provide_contact_messages)}

    @get("/")
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
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages, message_id: UUID
    ) -> Any:
        record = await contact_messages.get(message_id)
        return render(request, "contact_message.html", project=project, record=record)

    @post("/{message_id:uuid}/archive", opt=needs(Access.WRITE))
    async def archive(
        self, request: HTMXRequest, project: Project, contact_messages: ContactMessages, message_id: UUID
    ) -> Any:
        record = await contact_messages.get(message_id)
        await contact_messages.archive(record)
        return render(request, "contact_message.html", project=project, record=record, archived_now=True)

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
