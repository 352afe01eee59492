"""The team's live stream of one conversation (Server-Sent Events) for the console's conversation view:
the same events as the person's stream (`app/public/conversation_events.py`), for any member of the
project's organization, counted per member and per project against the open-stream limits."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get
from litestar.response import ServerSentEvent

from app.compression import SKIP_COMPRESSION
from app.conversations.live_reads import team_reads
from app.conversations.service import Conversations
from app.db.ids import parse_uuid
from app.db.models import Project
from app.dependencies import provide
from app.live.streams import conversation_channel, message_stream, resume_after
from app.state import live_bus_of, open_streams_of
from tenants.scope import OrgScope


class ConversationEventsController(Controller):
    path = "/projects/{project_id:str}/conversations/{conversation_id:str}/events"
    include_in_schema = False
    dependencies = {"conversations": provide(Conversations)}

    @get("/", opt={SKIP_COMPRESSION: True})
    async def follow_conversation(
        self,
        request: Request[Any, Any, Any],
        project: Project,
        org_scope: OrgScope,
        conversations: Conversations,
        conversation_id: str,
        last_event_id: int | None = None,
    ) -> ServerSentEvent:
        conversation = await conversations.get(parse_uuid(conversation_id, "conversation_id"))
        after = resume_after(request.headers.get("last-event-id"), last_event_id)
        release = open_streams_of(request.scope).admit(f"member:{org_scope.user_id}", str(project.id))
        reads = team_reads(request.app.state.session_maker, org_scope, project, conversation.id)
        start = conversation.last_message_id if after is None else after
        return message_stream(
            live_bus_of(request.scope), conversation_channel(conversation.id), start, reads, release
        )
