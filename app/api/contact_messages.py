"""Contact messages of a project: list, read and archive."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import Parameter
from litestar.response import Stream

from app.api.paging import Limit, Page
from app.api.parameters import Purge
from app.compression import SKIP_COMPRESSION
from app.db.models import ContactMessage, Project
from app.dependencies import provide_contact_messages
from app.errors import error_responses
from app.exports import CONTACT_MESSAGES, ExportFormat, export_response
from app.schemas.contact_message import ContactMessageList, ContactMessageOut
from app.schemas.pagination import Pagination
from app.services.contact_messages import ContactMessages
from app.services.projects import parse_uuid

Search = Annotated[
    str | None,
    Parameter(max_length=200, description="Case-insensitive substring of name, email, subject or message."),
]


class ContactMessageController(Controller):
    path = "/projects/{project_id:str}/contact-messages"
    tags = ["Contact messages"]
    dependencies = {"contact_messages": Provide(provide_contact_messages)}

    @get("/", summary="List contact messages, newest first", responses=error_responses(400, 401, 403, 404))
    async def list_messages(
        self,
        contact_messages: ContactMessages,
        page: Page = 1,
        limit: Limit = 20,
        search: Search = None,
        archived: bool = False,
    ) -> ContactMessageList:
        """Pages through the project's contact messages; archived ones only with archived=true."""
        records, total = await contact_messages.list(search=search, archived=archived, page=page, limit=limit)
        return ContactMessageList(
            contact_messages=[ContactMessageOut.of(r) for r in records],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/export",
        summary="Export contact messages as CSV or NDJSON, with the list's filters, newest first (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True},
    )
    async def export_messages(
        self,
        project: Project,
        contact_messages: ContactMessages,
        state: State,
        search: Search = None,
        archived: bool = False,
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching message in one download, read from a cursor as it is sent; CSV cells
        that a spreadsheet would run as formulas are defused."""
        query = (
            CONTACT_MESSAGES.select()
            .where(*contact_messages.conditions(search=search, archived=archived))
            .order_by(ContactMessage.created_at.desc(), ContactMessage.id.desc())
        )
        return export_response(state.session_maker, project, CONTACT_MESSAGES, query, format)

    @get(
        "/{message_id:str}", summary="Get one contact message", responses=error_responses(400, 401, 403, 404)
    )
    async def get_message(self, message_id: str, contact_messages: ContactMessages) -> ContactMessageOut:
        """One contact message of the project, archived or not; another project's message is not found."""
        return ContactMessageOut.of(await contact_messages.get(parse_uuid(message_id, "message_id")))

    @delete(
        "/{message_id:str}",
        summary="Archive a contact message (idempotent), or with purge=true delete it for good",
        responses=error_responses(400, 401, 403, 404),
    )
    async def archive_message(
        self, message_id: str, contact_messages: ContactMessages, purge: Purge = False
    ) -> None:
        """Moves the message to the archive (archiving it again changes nothing); purge=true deletes it
        for good instead."""
        record = await contact_messages.get(parse_uuid(message_id, "message_id"))
        await (contact_messages.purge(record) if purge else contact_messages.archive(record))
