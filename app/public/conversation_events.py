"""The identified person's live stream of one conversation (Server-Sent Events), for the widget's
Messages view: the same identity as every conversation call, in the query (an EventSource cannot set
headers). Each message is an event `message` whose id is the message's id and whose data is the
message as the conversation API shows it; a reconnecting EventSource sends `Last-Event-ID` and gets
what it missed. Refused like the other conversation calls (401, 403, 404, the client budget), and with
429 `too_many_streams` beyond the open streams allowed per person, per project or per server."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get
from litestar.params import Parameter
from litestar.response import ServerSentEvent
from sqlalchemy.ext.asyncio import AsyncSession

from app.conversations.live_reads import person_reads
from app.errors import error_responses
from app.live.streams import conversation_channel, message_stream, resume_after
from app.public.conversations import Sig, Token, User, persons_conversation
from app.public.paths import CONVERSATION_EVENTS
from app.schemas.conversations import MESSAGE_ID_LIMIT
from app.state import live_bus_of, open_streams_of

LastEventId = Annotated[
    int | None,
    Parameter(
        ge=0,
        le=MESSAGE_ID_LIMIT,
        schema_extra={"minimum": 0, "maximum": MESSAGE_ID_LIMIT},  # kept in the document although optional
        description="Resume after this message id (the `Last-Event-ID` header wins when both are sent); "
        "without either, the stream starts after the conversation's latest message.",
    ),
]


class ConversationEventsController(Controller):
    path = "/"
    tags = ["Conversations (identified person)"]

    @get(
        CONVERSATION_EVENTS,
        summary="Follow one of the identified person's conversations live (Server-Sent Events)",
        responses=error_responses(400, 401, 403, 404, 429),
        media_type="text/event-stream",
    )
    async def follow_my_conversation(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        conversation_id: str,
        project_key: str | None = None,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """`text/event-stream`: an event `message` (id: the message id, data: `{"id", "from", "message",
        "created_at"}`) for every message after the resume point, the person's own included; a comment
        line every 15 seconds; the stream ends now and then and the EventSource reconnects."""
        threads, person, conversation = await persons_conversation(
            request, db_session, conversation_id, project_key, user, sig, token
        )
        after = resume_after(request.headers.get("last-event-id"), last_event_id)
        project = threads.project
        release = open_streams_of(request.scope).admit(f"person:{project.id}:{person.id}", str(project.id))
        reads = person_reads(request.app.state.session_maker, threads.scope, project, person, conversation.id)
        start = conversation.last_message_id if after is None else after
        return message_stream(
            live_bus_of(request.scope), conversation_channel(conversation.id), start, reads, release
        )
