"""Contact messages of a project: list, read and archive."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, get, patch, post
from litestar.params import Parameter
from litestar.response import Stream

from app.api.paging import Limit, Page
from app.api.parameters import Purge, SpamFilter, VerifiedFilter
from app.compression import SKIP_COMPRESSION
from app.db.ids import parse_uuid
from app.db.models import ContactMessage, Project
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide
from app.errors import error_responses
from app.exports import CONTACT_MESSAGES, ExportFormat, export_response
from app.schemas.contact_message import ContactMessageList, ContactMessageOut, ContactMessagePatchBody
from app.schemas.contact_reply import ContactReplyBody, ContactReplyList, ContactReplyOut
from app.schemas.pagination import Pagination
from app.services.contact_messages import ContactMessages
from app.services.contact_replies import ContactReplies
from tenants.permissions import needs
from tenants.scope import Access

Search = Annotated[
    str | None,
    Parameter(max_length=200, description="Case-insensitive substring of name, email, subject or message."),
]


class ContactMessageController(Controller):
    path = "/projects/{project_id:str}/contact-messages"
    tags = ["Contact messages"]
    dependencies = {
        "contact_messages": provide(ContactMessages),
        "contact_replies": provide(ContactReplies),
    }

    @get(
        "/",
        summary="List contact messages, newest first",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_messages(
        self,
        contact_messages: ContactMessages,
        page: Page = 1,
        limit: Limit = 20,
        search: Search = None,
        archived: bool = False,
        verified: VerifiedFilter = None,
        spam: SpamFilter = False,
    ) -> ContactMessageList:
        """Pages through the project's contact messages; archived ones only with archived=true, spam only
        with spam=true."""
        records, total = await contact_messages.list(
            search=search, archived=archived, verified=verified, spam=spam, page=page, limit=limit
        )
        return ContactMessageList(
            contact_messages=[ContactMessageOut.of(r) for r in records],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        "/export",
        summary="Export contact messages as CSV or NDJSON, with the list's filters, newest first (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True, **REPLICA_READS},
    )
    async def export_messages(
        self,
        project: Project,
        contact_messages: ContactMessages,
        request: Request[Any, Any, Any],
        search: Search = None,
        archived: bool = False,
        verified: VerifiedFilter = None,
        spam: SpamFilter = False,
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching message in one download, read from a cursor as it is sent; CSV cells
        that a spreadsheet would run as formulas are defused."""
        query = (
            CONTACT_MESSAGES.select()
            .where(
                *contact_messages.conditions(search=search, archived=archived, verified=verified, spam=spam)
            )
            .order_by(ContactMessage.created_at.desc(), ContactMessage.id.desc())
        )
        return export_response(await read_sessions(request), project, CONTACT_MESSAGES, query, format)

    @get(
        "/{message_id:str}", summary="Get one contact message", responses=error_responses(400, 401, 403, 404)
    )
    async def get_message(self, message_id: str, contact_messages: ContactMessages) -> ContactMessageOut:
        """One contact message of the project, archived or not; another project's message is not found."""
        return ContactMessageOut.of(await contact_messages.get(parse_uuid(message_id, "message_id")))

    @patch(
        "/{message_id:str}",
        summary="Mark a contact message spam or not spam",
        responses=error_responses(400, 401, 403, 404, 413, 415),
        opt=needs(Access.WRITE),
    )
    async def patch_message(
        self, message_id: str, data: ContactMessagePatchBody, contact_messages: ContactMessages
    ) -> ContactMessageOut:
        """spam=false sends what was held back while it was spam (its webhook event, notifications)."""
        record = await contact_messages.get(parse_uuid(message_id, "message_id"))
        if data.spam is not msgspec.UNSET:
            await contact_messages.mark_spam(record, data.spam)
        return ContactMessageOut.of(record)

    @get(
        "/{message_id:str}/replies",
        summary="List the replies to a contact message, oldest first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_replies(
        self, message_id: str, contact_messages: ContactMessages, contact_replies: ContactReplies
    ) -> ContactReplyList:
        """The message's thread: every reply a member or token sent, as it was mailed."""
        record = await contact_messages.get(parse_uuid(message_id, "message_id"))
        return ContactReplyList(replies=[ContactReplyOut.of(r) for r in await contact_replies.thread(record)])

    @post(
        "/{message_id:str}/replies",
        summary="Reply to a contact message by mail",
        responses=error_responses(400, 401, 403, 404, 413, 415),
        opt=needs(Access.WRITE),
    )
    async def reply_to_message(
        self,
        message_id: str,
        data: ContactReplyBody,
        contact_messages: ContactMessages,
        contact_replies: ContactReplies,
    ) -> ContactReplyOut:
        """Mails the reply to the sender (the original quoted; Reply-To the member, or for a token the
        organization's first owner), keeps it in the thread, marks the message Answered and sends the
        contact_message.replied event."""
        record = await contact_messages.get(parse_uuid(message_id, "message_id"))
        return ContactReplyOut.of(await contact_replies.reply(record, data.message))

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
