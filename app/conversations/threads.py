"""Conversations as rows: opened for a verified person's feedback item or contact message, and each
message added under the conversation's row lock, so that message ids follow the order of commits within a
conversation. What the services below the conversation API share with it (feedback, contact messages and
their replies open and extend threads in their own transactions)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.conversations.live_events import message_stored
from app.db.after_commit import on_commit
from app.db.models import (
    ContactMessage,
    ContactReply,
    Conversation,
    ConversationMessage,
    FeedbackItem,
    Sender,
)
from app.schemas.conversations import MessageOut
from app.timestamps import utc_now

_publishing: set[asyncio.Task[None]] = set()
"""Publications under way: held here so that none is collected before it ran."""


async def open_conversations(
    session: AsyncSession, subjects: Sequence[FeedbackItem | ContactMessage]
) -> list[Conversation]:
    """A conversation for each subject sent by a verified person that has none yet, opening with the
    person's message; the team has been told of it as of a new item, so it starts read on both sides."""
    wanted = [s for s in subjects if s.submitted_by_verified and s.submitted_by and not s.spam]
    if not wanted:
        return []
    await session.flush()  # the subjects' ids
    items = [s.id for s in wanted if isinstance(s, FeedbackItem)]
    messages = [s.id for s in wanted if isinstance(s, ContactMessage)]
    having = set(
        await session.scalars(
            select(Conversation.feedback_id).where(Conversation.feedback_id.in_(items))
            if items
            else select(Conversation.feedback_id).where(False)
        )
    ) | set(
        await session.scalars(
            select(Conversation.contact_message_id).where(Conversation.contact_message_id.in_(messages))
            if messages
            else select(Conversation.contact_message_id).where(False)
        )
    )
    opened: list[tuple[Conversation, FeedbackItem | ContactMessage]] = []
    for subject in wanted:
        if subject.id in having:
            continue
        feedback = isinstance(subject, FeedbackItem)
        address = subject.notify_email if isinstance(subject, FeedbackItem) else subject.email
        now = subject.created_at or utc_now()
        conversation = Conversation(
            project_id=subject.project_id,
            person=subject.submitted_by,
            person_email=address,
            feedback_id=subject.id if feedback else None,
            contact_message_id=None if feedback else subject.id,
            last_message_at=now,
        )
        session.add(conversation)
        opened.append((conversation, subject))
    await session.flush()
    for conversation, subject in opened:
        first = await add_message(
            session, conversation, Sender.PERSON, subject.message, at=subject.created_at
        )
        conversation.team_read_id = conversation.person_read_id = first.id
        conversation.team_mailed_id = conversation.person_mailed_id = first.id
    return [conversation for conversation, _ in opened]


async def add_message(
    session: AsyncSession,
    conversation: Conversation,
    sender: Sender,
    text: str,
    *,
    author: str | None = None,
    contact_reply_id: UUID | None = None,
    at: datetime | None = None,
) -> ConversationMessage:
    """Store one message in the caller's transaction; it is published to the live side once committed.
    The sender has seen the whole conversation up to their own message."""
    await session.execute(select(Conversation.id).where(Conversation.id == conversation.id).with_for_update())
    now = at or utc_now()
    row = ConversationMessage(
        conversation_id=conversation.id,
        sender=sender.value,
        message=text,
        author=author,
        contact_reply_id=contact_reply_id,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    await session.flush()
    conversation.last_message_id = row.id
    conversation.last_message_at = now
    if sender is Sender.PERSON:
        conversation.person_read_id = row.id
    else:
        conversation.team_read_id = row.id
    await session.flush()
    published = MessageOut.of(row)
    on_commit(session, lambda: _publish(conversation.id, published))
    return row


async def add_contact_reply(session: AsyncSession, record: ContactMessage, reply: ContactReply) -> None:
    """A reply to a contact message joins its conversation as the team's message; the reply's own mail
    told the person of it, so no mail about it follows."""
    conversation = await session.scalar(
        select(Conversation).where(Conversation.contact_message_id == record.id)
    )
    if conversation is None:
        return
    row = await add_message(
        session, conversation, Sender.TEAM, reply.message, author=reply.author, contact_reply_id=reply.id
    )
    conversation.person_mailed_id = row.id


def _publish(conversation_id: UUID, message: MessageOut) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # committed outside an event loop (a migration, a script): nobody listens
        return
    task = loop.create_task(message_stored(conversation_id, message))
    _publishing.add(task)
    task.add_done_callback(_publishing.discard)
