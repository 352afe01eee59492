"""One message of a conversation, from the person or from the team. Ids grow with every message and are
taken under the conversation's row lock, so within a conversation they follow the order of commits: a
reader who saw message N misses nothing by asking for the messages after N."""

from __future__ import annotations

import enum
from uuid import UUID

from advanced_alchemy.base import BigIntAuditBase
from advanced_alchemy.types.identity import BigIntIdentity
from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class Sender(enum.StrEnum):
    PERSON = "person"
    TEAM = "team"


class ConversationMessage(BigIntAuditBase):
    __tablename__ = "conversation_messages"
    __table_args__ = (Index("ix_conversation_messages_thread", "conversation_id", "id"),)

    id: Mapped[int] = mapped_column(BigIntIdentity, primary_key=True, autoincrement=True)
    conversation_id: Mapped[UUID] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    sender: Mapped[str] = mapped_column(String(8))
    """"person" or "team" (`Sender`)."""
    message: Mapped[str] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(320), default=None)
    """The team's messages: who wrote it, as histories record it (a member's email, a token's prefix)."""
    contact_reply_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("contact_replies.id", ondelete="CASCADE"), default=None, unique=True
    )
    """A reply to a contact message, mailed and kept in the message's thread, shown here as the team's."""
