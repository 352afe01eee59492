"""The identified person's side of conversations, called from the feedback widget's Messages view (or the
customer's own app) without a token: every call carries the person's identity, made with the project's
identity secret, as `user` and `sig` or as `token` (or an `Authorization: Bearer` header), beside the
project's key.

No identity, or a wrong one, is 401; a conversation of another person is 404. Each call passes the public
gate (project key 404, allowed origins 403, per-client budgets 429); a person may send at most
`MESSAGES_PER_MINUTE` messages a minute (429 naming `message`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from litestar import Controller, Litestar, Request, get, post
from litestar.params import Parameter
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import RateLimit, Settings
from app.conversations.service import PersonConversations
from app.db.ids import parse_uuid
from app.db.models import Conversation
from app.errors import InvalidRequest, RateLimited, error_responses
from app.identity.person_tokens import IdentifiedPerson, identify_person
from app.public.paths import CONVERSATION, CONVERSATION_MESSAGES, CONVERSATIONS
from app.request_checks import strict_body
from app.request_checks.call_budget import CallBudget
from app.request_checks.message_after import After
from app.schemas.conversations import (
    ConversationMessageBody,
    ConversationOut,
    MessageOut,
    PersonConversationList,
)
from app.state import ingest_of
from tenants.scope import widget_scope

MESSAGES_PER_MINUTE = 20
MESSAGE_STORE = "conversation_messages"

User = Annotated[str | None, Parameter(max_length=255, description="The person's id, with `sig`.")]
Sig = Annotated[
    str | None,
    Parameter(
        max_length=128, description="Hex HMAC-SHA256 of `user` keyed by the project's identity secret."
    ),
]
Token = Annotated[
    str | None,
    Parameter(
        max_length=4096,
        description="A JWT signed HS256 with the project's identity secret: claims sub, exp, email, name.",
    ),
]
Lang = Annotated[
    str | None,
    Parameter(max_length=16, description="The widget's language (en, de, sv), for the person's mail."),
]
ERRORS = error_responses(400, 401, 403, 404, 429)


class PublicConversationController(Controller):
    path = "/"
    tags = ["Conversations (identified person)"]

    @get(CONVERSATIONS, summary="List the identified person's conversations", responses=ERRORS)
    async def list_my_conversations(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: str | None = None,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
        lang: Lang = None,
    ) -> PersonConversationList:
        """The person's conversations in the project, the latest message first: one per feedback item
        and contact message they sent identified, each with its messages and how many are unread."""
        threads, person = await person_threads(request, db_session, project_key, user, sig, token)
        await threads.remember(person, lang)
        return PersonConversationList(conversations=await threads.list(person))

    @get(CONVERSATION, summary="Read one of the identified person's conversations", responses=ERRORS)
    async def read_my_conversation(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        conversation_id: str,
        project_key: str | None = None,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
        after: After = 0,
    ) -> ConversationOut:
        """The conversation with its messages (only those after `after` when given), marked read for
        the person; `unread` says how many of the team's messages were new to them."""
        threads, _, conversation = await persons_conversation(
            request, db_session, conversation_id, project_key, user, sig, token
        )
        return await threads.read(conversation, after=after)

    @post(
        CONVERSATION_MESSAGES,
        status_code=201,
        summary="Send a message in one of the identified person's conversations",
        responses=error_responses(400, 401, 403, 404, 413, 429),
    )
    async def send_my_message(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        conversation_id: str,
        data: ConversationMessageBody,
        project_key: str | None = None,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
        lang: Lang = None,
    ) -> MessageOut:
        """`{"message"}` (1 to 5,000 characters) from the person; the team sees it at once and, unread
        for 5 minutes, the members get one mail about it."""
        threads, person = await person_threads(
            request, db_session, project_key, user, sig, token, "conversation_messages"
        )
        data = await strict_body(request, data)
        conversation = await threads.get(person, parse_uuid(conversation_id, "conversation_id"))
        if not data.message.strip():  # refused before it spends the person's budget
            raise InvalidRequest("message", "must not be blank")
        budget: CallBudget = request.app.state.conversation_budget
        wait = await budget.spend(f"{conversation.project_id}:{person.id}")
        if wait:
            raise RateLimited(wait, f"message: at most {MESSAGES_PER_MINUTE} messages a minute")
        await threads.remember(person, lang)
        return await threads.send(conversation, data.message, None)


async def person_threads(
    request: Request[Any, Any, Any],
    session: AsyncSession,
    project_key: str | None,
    user: str | None,
    sig: str | None,
    token: str | None,
    endpoint: str = "conversations",
) -> tuple[PersonConversations, IdentifiedPerson]:
    """The person's conversations service and who they are. No identity at all is 401 before anything
    else; then the project (the public gate), then the identity checked against its secret."""
    bearer = request.headers.get("authorization", "")
    if not token and bearer[:7].lower() == "bearer ":
        token = bearer[7:].strip()
    if not token and not (user and sig):
        identify_person(None, user=user, sig=sig, token=token)  # raises the 401
    if not project_key:
        raise InvalidRequest("project_key", "is required")
    key = parse_uuid(project_key, "project_key")
    project = await ingest_of(request.scope).admit(request.scope, endpoint, key)
    person = identify_person(project.identity_secret, user=user, sig=sig, token=token)
    return PersonConversations(session, widget_scope(project.org_id), project.as_project()), person


async def persons_conversation(
    request: Request[Any, Any, Any],
    session: AsyncSession,
    conversation_id: str,
    project_key: str | None,
    user: str | None,
    sig: str | None,
    token: str | None,
) -> tuple[PersonConversations, IdentifiedPerson, Conversation]:
    """`person_threads`, and the conversation of the person's that the path names (404 for another's)."""
    threads, person = await person_threads(request, session, project_key, user, sig, token)
    return threads, person, await threads.get(person, parse_uuid(conversation_id, "conversation_id"))


@asynccontextmanager
async def conversation_budget(app: Litestar) -> AsyncIterator[None]:
    """The budget of messages per person, shared through Redis when there is one."""
    settings: Settings = app.state.settings
    app.state.conversation_budget = CallBudget(
        RateLimit(MESSAGES_PER_MINUTE, 60),
        app.state.redis,
        f"{settings.redis_prefix}conversation-messages:",
        app.stores.get(MESSAGE_STORE),
    )
    yield
