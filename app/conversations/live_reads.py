"""What a conversation's live stream reads on each wake-up: the messages after the last one it sent,
in a session of its own (a stream holds no database connection while it waits), marked read for the
reader as the conversation API's read does: an open stream is an open page, so nobody is mailed about a
message they were shown."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.conversations.service import Conversations, PersonConversations
from app.db.models import Project
from app.db.transactions import unit_of_work
from app.identity.person_tokens import IdentifiedPerson
from app.live.streams import LiveMessage, ReadAfter
from app.schemas.conversations import ConversationOut
from tenants.scope import OrgScope


def person_reads(
    session_maker: async_sessionmaker[AsyncSession],
    scope: OrgScope,
    project: Project,
    person: IdentifiedPerson,
    conversation_id: UUID,
) -> ReadAfter:
    async def read_after(after: int) -> Sequence[LiveMessage]:
        async with unit_of_work(session_maker) as session:
            threads = PersonConversations(session, scope, project)
            out = await threads.read(await threads.get(person, conversation_id), after=after)
        return _messages(out)

    return read_after


def team_reads(
    session_maker: async_sessionmaker[AsyncSession], scope: OrgScope, project: Project, conversation_id: UUID
) -> ReadAfter:
    async def read_after(after: int) -> Sequence[LiveMessage]:
        async with unit_of_work(session_maker) as session:
            threads = Conversations(session, scope, project)
            out = await threads.read(await threads.get(conversation_id), after=after)
        return _messages(out)

    return read_after


def _messages(conversation: ConversationOut) -> list[LiveMessage]:
    return [LiveMessage(m.id, msgspec.json.encode(m).decode()) for m in conversation.messages]
