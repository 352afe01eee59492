"""The support inbox (a project's conversations, newest first, unread ones marked) and a conversation with
an identified person, as the console shows it on its own page and on the page of its feedback item or
contact message: the messages (refreshed every few seconds by htmx, read by the team when shown) and a box
to answer, through the service the API uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, get, post
from litestar.plugins.htmx import HTMXRequest

from admin_ui.forms import Form
from admin_ui.listing import PAGE_SIZE, Pages, choice, page_number
from admin_ui.rendering import go_to, render
from app.conversations.service import Conversations
from app.db.models import Conversation, Project, SubjectKind
from app.db.models.field_rules import MESSAGE_MAX_LENGTH
from app.dependencies import provide
from app.schemas.conversations import ConversationOut
from app.schemas.pagination import Pagination
from tenants.permissions import needs
from tenants.scope import Access, OrgScope, OrgScoped


@dataclass
class MessageForm:
    message: str = ""


def subject_url(project: Project, conversation: Conversation) -> str:
    area = "feedback" if conversation.feedback_id is not None else "contact"
    return f"/projects/{project.id}/{area}/{conversation.subject_id}#conversation"


class ConversationConsoleController(Controller):
    path = "/projects/{project_id:str}/conversations"
    include_in_schema = False
    dependencies = {"conversations": provide(Conversations)}

    @get("/")
    async def inbox(self, request: HTMXRequest, project: Project, conversations: Conversations) -> Any:
        """The support inbox: every conversation of the project, the latest message first; `unread=true`
        keeps those with a message of the person's the team has not read. Listing reads none of them."""
        unread = choice(request.query_params.get("unread"), ("true",), "unread") == "true"
        page = page_number(request.query_params.get("page"))
        pairs, total = await conversations.inbox(page=page, limit=PAGE_SIZE, unread=unread)
        pages = Pages(
            Pagination.of(page=page, limit=PAGE_SIZE, total=total),
            f"/projects/{project.id}/conversations",
            {"unread": "true" if unread else ""},
        )
        rows = [(row, out, subject_url(project, row)) for row, out in pairs]
        return render(request, "conversations.html", project=project, rows=rows, pages=pages, unread=unread)

    @get("/{conversation_id:uuid}")
    async def conversation(
        self, request: HTMXRequest, project: Project, conversations: Conversations, conversation_id: UUID
    ) -> Any:
        conversation = await conversations.get(conversation_id)
        return _page(request, project, conversation, await conversations.read(conversation))

    @get("/{conversation_id:uuid}/messages")
    async def messages(
        self, request: HTMXRequest, project: Project, conversations: Conversations, conversation_id: UUID
    ) -> Any:
        """The messages alone: what htmx polls every few seconds, leaving the answer being typed alone."""
        conversation = await conversations.get(conversation_id)
        out = await conversations.read(conversation)
        return render(request, "partials/_conversation_messages.html", project=project, conversation=out)

    @post("/{conversation_id:uuid}/messages", opt=needs(Access.WRITE))
    async def answer(
        self,
        request: HTMXRequest,
        project: Project,
        conversations: Conversations,
        org_scope: OrgScope,
        conversation_id: UUID,
        data: Form[MessageForm],
    ) -> Any:
        """Any member may answer; the person sees it in the widget's Messages."""
        conversation = await conversations.get(conversation_id)
        text = data.message.strip()
        error = (
            "Write a message first"
            if not text
            else f"At most {MESSAGE_MAX_LENGTH} characters"
            if len(text) > MESSAGE_MAX_LENGTH
            else None
        )
        if error is None:
            await conversations.send(conversation, text, org_scope.actor)
        if error is None and not request.htmx:
            return go_to(request, subject_url(project, conversation))
        out = await conversations.read(conversation)
        draft = data.message if error else ""
        return _page(
            request,
            project,
            conversation,
            out,
            400 if error else 200,
            conversation_errors=error,
            conversation_draft=draft,
        )


def _page(
    request: HTMXRequest,
    project: Project,
    row: Conversation,
    conversation: ConversationOut,
    status_code: int = 200,
    **extra: Any,
) -> Any:
    return render(
        request,
        "conversation.html",
        fragment="partials/_conversation.html",
        status_code=status_code,
        project=project,
        conversation=conversation,
        subject_url=subject_url(project, row),
        **extra,
    )


async def conversation_of(
    services: OrgScoped, project: Project, kind: SubjectKind, subject_id: UUID
) -> ConversationOut | None:
    """The conversation about a feedback item or contact message (for its page, built from the page's
    service), read by the team as it is shown."""
    conversations = Conversations(services.session, services.scope, project)
    row = await conversations.of_subject(kind, subject_id)
    return await conversations.read(row) if row is not None else None
