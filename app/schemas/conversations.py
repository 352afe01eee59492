"""Conversations as both sides read them, and the body of a new message."""

from __future__ import annotations

import msgspec

from app.db.models import Conversation, ConversationMessage
from app.schemas.fields import FeedbackMessage
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

MESSAGE_ID_LIMIT = 2**53
"""The largest `after` taken: message ids stay far below it, and every JSON reader keeps it exactly."""


class ConversationMessageBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST .../conversations/{conversation_id}/messages."""

    message: FeedbackMessage = ""
    """The message, at most 5,000 characters; missing or blank is refused (400 naming `message`)."""


class MessageOut(msgspec.Struct, frozen=True):
    id: int
    """Grows with every message of the conversation: the Server-Sent Events id, and `after` of a read."""
    sender: str = msgspec.field(name="from")
    """"person" or "team"."""
    message: str = ""
    created_at: str = ""

    @classmethod
    def of(cls, row: ConversationMessage) -> MessageOut:
        return cls(id=row.id, sender=row.sender, message=row.message, created_at=iso_z(row.created_at))


class SubjectOut(msgspec.Struct, frozen=True):
    kind: str
    """"feedback" or "contact_message"."""
    id: str


class ConversationOut(msgspec.Struct):
    id: str
    subject: SubjectOut
    messages: list[MessageOut]
    """Oldest first; the person's own feedback or contact message opens the thread."""
    unread: int
    """Messages of the other side the reader has not seen yet."""
    updated_at: str
    """When the latest message was stored."""

    @classmethod
    def of(cls, row: Conversation, messages: list[MessageOut], unread: int) -> ConversationOut:
        return cls(
            id=str(row.id),
            subject=SubjectOut(kind=row.subject_kind.value, id=str(row.subject_id)),
            messages=messages,
            unread=unread,
            updated_at=iso_z(row.last_message_at),
        )


class PersonConversationList(msgspec.Struct):
    """The person's conversations in the project, the latest message first."""

    conversations: list[ConversationOut]


class ConversationList(msgspec.Struct):
    """A project's conversations, the latest message first."""

    conversations: list[ConversationOut]
    pagination: Pagination
