"""The Contact message resource as read back through the API."""

from __future__ import annotations

import msgspec

from app.db.models import ContactMessage
from app.schemas.pagination import Pagination
from app.timestamps import iso_z


class ContactMessageOut(msgspec.Struct, omit_defaults=True):
    """subject, path and version appear only when set."""

    id: str
    project_id: str
    name: str
    email: str
    message: str
    created_at: str
    archived: bool
    subject: str | None = None
    path: str | None = None
    version: str | None = None

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
            subject=record.subject,
            path=record.path,
            version=record.version,
        )


class ContactMessageList(msgspec.Struct):
    contact_messages: list[ContactMessageOut]
    pagination: Pagination
