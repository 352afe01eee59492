"""A private thread between a project's team and one identified person about one subject: a feedback item
or a contact message that person sent signed with the project's identity secret.

The messages are rows of `conversation_messages`; here are what each side has read (`unread` is counted
from these markers), the person's address and language for mail, and the marks of the mails sent about
unread messages (one per conversation and side per hour at most)."""

from __future__ import annotations

import enum
from datetime import datetime
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from advanced_alchemy.types import DateTimeUTC
from sqlalchemy import BigInteger, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.field_rules import SUBMITTED_BY_MAX_LENGTH


class SubjectKind(enum.StrEnum):
    FEEDBACK = "feedback"
    CONTACT_MESSAGE = "contact_message"


class Conversation(UUIDv7AuditBase):
    __tablename__ = "conversations"
    __table_args__ = (
        Index("ix_conversations_person", "project_id", "person", "last_message_at"),
        Index("ix_conversations_list", "project_id", "last_message_at", "id"),
    )

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    person: Mapped[str] = mapped_column(String(SUBMITTED_BY_MAX_LENGTH))
    """The person's id in the customer's app: the subject's verified `submitted_by`."""
    person_email: Mapped[str | None] = mapped_column(String(320), default=None)
    """Where mail about unread messages goes: the identity token's email, else the address the person gave
    with the subject (a contact message's email, a feedback item's notify_email)."""
    person_language: Mapped[str | None] = mapped_column(String(8), default=None)
    """The language of the person's widget, for their mail."""
    feedback_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("feedback_items.id", ondelete="CASCADE"), default=None, unique=True
    )
    contact_message_id: Mapped[UUID | None] = mapped_column(
        ForeignKey("contact_messages.id", ondelete="CASCADE"), default=None, unique=True
    )
    """Exactly one of feedback_id and contact_message_id is set; deleting the subject (purge, erasure,
    retention) deletes the conversation and its messages."""
    last_message_id: Mapped[int] = mapped_column(BigInteger, default=0)
    last_message_at: Mapped[datetime] = mapped_column(DateTimeUTC(timezone=True))
    """The conversation's `updated_at`: when its latest message was stored."""
    person_read_id: Mapped[int] = mapped_column(BigInteger, default=0)
    """The newest message the person has seen: the team's messages after it are unread."""
    team_read_id: Mapped[int] = mapped_column(BigInteger, default=0)
    person_mailed_id: Mapped[int] = mapped_column(BigInteger, default=0)
    """The newest message the latest mail to the person told of."""
    person_mailed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)
    team_mailed_id: Mapped[int] = mapped_column(BigInteger, default=0)
    team_mailed_at: Mapped[datetime | None] = mapped_column(DateTimeUTC(timezone=True), default=None)

    @property
    def subject_kind(self) -> SubjectKind:
        return SubjectKind.FEEDBACK if self.feedback_id is not None else SubjectKind.CONTACT_MESSAGE

    @property
    def subject_id(self) -> UUID:
        subject = self.feedback_id or self.contact_message_id
        assert subject is not None
        return subject
