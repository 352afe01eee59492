"""The Feedback item resource, its lists and its change history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from app.db.models import FeedbackAttachment, FeedbackChange, FeedbackItem, FeedbackSource, LinkedIssue
from app.db.models.field_rules import literal_of
from app.schemas.feedback_requests import FeedbackStatusName, FeedbackTypeName
from app.schemas.integrations import TrackerName
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

FeedbackSourceName = literal_of(FeedbackSource)


class AssigneeOut(msgspec.Struct):
    id: str
    email: str


class AttachmentOut(msgspec.Struct):
    """An image sent with the item, as stored (re-encoded, without metadata); its bytes are at
    GET /projects/{project_id}/feedback/{feedback_id}/attachments/{id}."""

    id: str
    content_type: Literal["image/png", "image/jpeg", "image/webp"]
    bytes: int
    width: int
    height: int

    @classmethod
    def of(cls, attachment: FeedbackAttachment) -> AttachmentOut:
        return cls(
            id=str(attachment.id),
            content_type=attachment.content_type,  # type: ignore[arg-type]
            bytes=attachment.bytes,
            width=attachment.width,
            height=attachment.height,
        )


class LinkedIssueOut(msgspec.Struct):
    """An issue filed for the item in a tracker; `state` is what the tracker's webhooks last said."""

    tracker: TrackerName
    url: str
    key: str
    """How the tracker names it: "owner/name#12" on GitHub, "ENG-12" in Linear and Jira."""
    state: Literal["open", "closed"]

    @classmethod
    def of(cls, issue: LinkedIssue) -> LinkedIssueOut:
        return cls(
            tracker=issue.tracker,  # type: ignore[arg-type]
            url=issue.url,
            key=issue.key,
            state=issue.state,  # type: ignore[arg-type]
        )


class FeedbackOut(msgspec.Struct, omit_defaults=True):
    """path, version, submitted_by, resolution_note, metadata, assignee, duplicate_of, duplicate_count,
    attachments, notify_email and linked_issues appear only when set."""

    id: str
    project_id: str
    message: str
    status: FeedbackStatusName
    type: FeedbackTypeName
    source: FeedbackSourceName
    created_at: str
    updated_at: str
    archived: bool
    submitted_by_verified: bool
    """Whether submitted_by came signed with the project's identity secret."""
    spam: bool
    """Judged spam: listed only with spam=true, counted and announced nowhere."""
    path: str | None = None
    version: str | None = None
    submitted_by: str | None = None
    resolution_note: str | None = None
    metadata: dict[str, Any] | None = None
    assignee: AssigneeOut | None = None
    duplicate_of: str | None = None
    """The item this one repeats (it was closed when marked)."""
    duplicate_count: int = 0
    """How many items are marked as duplicates of this one; absent when none."""
    attachments: list[AttachmentOut] = msgspec.field(default_factory=list)
    """The images sent with the item (screenshots, attached images), oldest first; absent when none."""
    notify_email: str | None = None
    """The reporter's address, given in the widget to be mailed once when the item is resolved."""
    linked_issues: list[LinkedIssueOut] = msgspec.field(default_factory=list)
    """Issues filed for the item in the project's trackers, oldest first; absent when none."""

    @classmethod
    def of(
        cls,
        item: FeedbackItem,
        assignee_email: str | None = None,
        duplicate_count: int = 0,
        attachments: Sequence[FeedbackAttachment] = (),
        linked_issues: Sequence[LinkedIssue] = (),
    ) -> FeedbackOut:
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
            submitted_by_verified=item.submitted_by_verified,
            spam=item.spam,
            path=item.path,
            version=item.version,
            submitted_by=item.submitted_by,
            resolution_note=item.resolution_note,
            metadata=item.custom_data,
            assignee=assignee,
            duplicate_of=str(item.duplicate_of_id) if item.duplicate_of_id else None,
            duplicate_count=duplicate_count,
            attachments=[AttachmentOut.of(attachment) for attachment in attachments],
            notify_email=item.notify_email,
            linked_issues=[LinkedIssueOut.of(issue) for issue in linked_issues],
        )


class FeedbackExportOut(FeedbackOut):
    """A feedback export's row: the item and the full address of each of its images (the API's, read with
    an organization token)."""

    attachment_urls: list[str] = msgspec.field(default_factory=list)


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
