"""The Feedback item resource, its lists and its change history."""

from __future__ import annotations

from typing import Any

import msgspec

from app.db.models import FeedbackChange, FeedbackItem, FeedbackSource
from app.db.models.field_rules import literal_of
from app.schemas.feedback_requests import FeedbackStatusName, FeedbackTypeName
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

FeedbackSourceName = literal_of(FeedbackSource)


class AssigneeOut(msgspec.Struct):
    id: str
    email: str


class FeedbackOut(msgspec.Struct, omit_defaults=True):
    """path, version, submitted_by, resolution_note, metadata and assignee appear only when set."""

    id: str
    project_id: str
    message: str
    status: FeedbackStatusName
    type: FeedbackTypeName
    source: FeedbackSourceName
    created_at: str
    updated_at: str
    archived: bool
    path: str | None = None
    version: str | None = None
    submitted_by: str | None = None
    resolution_note: str | None = None
    metadata: dict[str, Any] | None = None
    assignee: AssigneeOut | None = None

    @classmethod
    def of(cls, item: FeedbackItem, assignee_email: str | None = None) -> FeedbackOut:
        """`assignee_email` for rows read without the item's assignee (exports join it instead)."""
        assignee = None
        if item.assignee_id is not None:
            email = assignee_email if assignee_email is not None else item.assignee.email  # type: ignore[union-attr]
            assignee = AssigneeOut(id=str(item.assignee_id), email=email)
        return cls(
            id=str(item.id),
            project_id=str(item.project_id),
            message=item.message,
            status=item.status,  # type: ignore[arg-type]
            type=item.type,  # type: ignore[arg-type]
            source=item.source,  # type: ignore[arg-type]
            created_at=iso_z(item.created_at),
            updated_at=iso_z(item.updated_at),
            archived=item.archived,
            path=item.path,
            version=item.version,
            submitted_by=item.submitted_by,
            resolution_note=item.resolution_note,
            metadata=item.custom_data,
            assignee=assignee,
        )


class FeedbackList(msgspec.Struct):
    feedback: list[FeedbackOut]
    pagination: Pagination


class FeedbackChangeOut(msgspec.Struct, rename={"from_value": "from", "to_value": "to"}):
    """One changed field; `archived` changes carry booleans, every other field text or null."""

    field: str
    from_value: str | bool | None
    to_value: str | bool | None
    changed_by: str
    changed_at: str

    @classmethod
    def of(cls, change: FeedbackChange) -> FeedbackChangeOut:
        return cls(
            field=change.field,
            from_value=_typed(change.field, change.from_value),
            to_value=_typed(change.field, change.to_value),
            changed_by=change.changed_by,
            changed_at=iso_z(change.created_at),
        )


class FeedbackHistory(msgspec.Struct):
    history: list[FeedbackChangeOut]


def _typed(field: str, value: str | None) -> str | bool | None:
    return value == "true" if field == "archived" and value is not None else value
