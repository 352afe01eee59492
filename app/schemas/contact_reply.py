"""A reply to a contact message, as the API reads and writes it."""

from __future__ import annotations

import msgspec

from app.db.models import ContactReply
from app.schemas.fields import FeedbackMessage
from app.timestamps import iso_z


class ContactReplyBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/contact-messages/{message_id}/replies."""

    message: FeedbackMessage = ""
    """The answer, mailed to the message's sender with the original quoted. Required: missing or blank
    is refused (400) once the message is found, so another project's message id is 404 whatever the
    body."""


class ContactReplyOut(msgspec.Struct, omit_defaults=True):
    id: str
    contact_message_id: str
    message: str
    author: str
    """Who replied: a member's email address, or the display prefix of the token used."""
    created_at: str
    reply_to: str | None = None
    """Where the sender's answers go (the mail's Reply-To header)."""

    @classmethod
    def of(cls, record: ContactReply) -> ContactReplyOut:
        return cls(
            id=str(record.id),
            contact_message_id=str(record.contact_message_id),
            message=record.message,
            author=record.author,
            created_at=iso_z(record.created_at),
            reply_to=record.reply_to,
        )


class ContactReplyList(msgspec.Struct):
    """The thread of one message, oldest reply first."""

    replies: list[ContactReplyOut]
