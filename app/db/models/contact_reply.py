"""A member's answer to a contact message, mailed to its sender and kept in the message's thread."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase
from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column


class ContactReply(UUIDv7AuditBase):
    __tablename__ = "contact_replies"

    contact_message_id: Mapped[UUID] = mapped_column(
        ForeignKey("contact_messages.id", ondelete="CASCADE"), index=True
    )
    """Deleting the message (purge, erasure, retention) deletes its thread with it."""
    message: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(320))
    """Who replied, as recorded in histories: a member's email or a token's display prefix."""
    reply_to: Mapped[str | None] = mapped_column(String(320), default=None)
    """The address the sender's answers go to (the mail's Reply-To), when there is one."""
