"""The Contact message resource as read back through the API."""

from __future__ import annotations

import msgspec

from app.db.models import ContactMessage, ContactStatus
from app.db.models.field_rules import literal_of
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

ContactStatusName = literal_of(ContactStatus)


class ContactMessageOut(msgspec.Struct, omit_defaults=True):
    """subject, path, version and submitted_by appear only when set."""

    id: str
    project_id: str
    name: str
    email: str
    message: str
    created_at: str
    archived: bool
    submitted_by_verified: bool
    """Whether submitted_by came signed with the project's identity secret."""
    spam: bool
    """Judged spam: listed only with spam=true, counted and announced nowhere."""
    status: ContactStatusName
    """Answered once a member has replied to it."""
    subject: str | None = None
    path: str | None = None
    version: str | None = None
    submitted_by: str | None = None

    @classmethod
    def of(cls, record: ContactMessage) -> ContactMessageOut:
        return cls(
            id=str(record.id),
            project_id=str(record.project_id),
            name=record.name,
            email=record.email,
            message=record.message,
            created_at=iso_z(record.created_at),
            archived=record.archived,
            submitted_by_verified=record.submitted_by_verified,
            spam=record.spam,
            status=record.status,  # type: ignore[arg-type]
            subject=record.subject,
            path=record.path,
            version=record.version,
            submitted_by=record.submitted_by,
        )


class ContactMessageList(msgspec.Struct):
    contact_messages: list[ContactMessageOut]
    pagination: Pagination


class ContactMessagePatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """PATCH /projects/{project_id}/contact-messages/{message_id}: the fields sent change."""

    spam: bool | msgspec.UnsetType = msgspec.UNSET
    """false marks a message judged spam as a real one and sends what was held back (its
    contact_message.created webhook, notifications); true hides it in the spam list."""
