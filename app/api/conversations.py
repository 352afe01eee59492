"""The team's side of a project's conversations with identified persons: list, read (which marks the
conversation read for the team) and answer."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.params import Parameter

from app.api.paging import Limit, Page
from app.conversations.service import Conversations
from app.db.ids import parse_uuid
from app.dependencies import provide
from app.errors import error_responses
from app.request_checks.message_after import After
from app.schemas.conversations import (
    ConversationList,
    ConversationMessageBody,
    ConversationOut,
    MessageOut,
)
from app.schemas.pagination import Pagination
from tenants.scope import OrgScope

Unread = Annotated[
    bool,
    Parameter(description="true: only conversations with a message of the person's the team has not read."),
]


class ConversationController(Controller):
    path = "/projects/{project_id:str}/conversations"
    tags = ["Conversations"]
    dependencies = {"conversations": provide(Conversations)}

    @get(
        "/",
        summary="List conversations, the latest message first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_conversations(
        self, conversations: Conversations, page: Page = 1, limit: Limit = 20, unread: Unread = False
    ) -> ConversationList:
        """Every conversation of the project with its messages and how many of the person's are unread
        by the team; `unread=true` keeps those with an unread message of the person's."""
        rows, total = await conversations.list(page=page, limit=limit, unread=unread)
        return ConversationList(
            conversations=rows, pagination=Pagination.of(page=page, limit=limit, total=total)
        )

    @get(
        "/{conversation_id:str}",
        summary="Read a conversation (marks it read for the team)",
        responses=error_responses(400, 401, 403, 404),
    )
    async def read_conversation(
        self, conversations: Conversations, conversation_id: str, after: After = 0
    ) -> ConversationOut:
        """The conversation with its messages (only those after `after` when given); `unread` says how
        many of the person's messages were new to the team."""
        conversation = await conversations.get(parse_uuid(conversation_id, "conversation_id"))
        return await conversations.read(conversation, after=after)

    @post(
        "/{conversation_id:str}/messages",
        status_code=201,
        summary="Answer in a conversation",
        responses=error_responses(400, 401, 403, 404, 413),
    )
    async def send_message(
        self,
        conversations: Conversations,
        org_scope: OrgScope,
        conversation_id: str,
        data: ConversationMessageBody,
    ) -> MessageOut:
        """`{"message"}` (1 to 5,000 characters) from the team; the person sees it in the widget at once
        and, unread for 5 minutes, gets one mail about it."""
        conversation = await conversations.get(parse_uuid(conversation_id, "conversation_id"))
        return await conversations.send(conversation, data.message, org_scope.actor)
