"""Request bodies that create and change feedback items."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec

from app.db.models.feedback_item import FeedbackStatus, FeedbackType
from app.db.models.field_rules import literal_of
from app.schemas.fields import (
    ContactEmail,
    ElapsedMs,
    FeedbackMessage,
    Honeypot,
    Metadata,
    Path,
    PublicFeedbackMessage,
    SubmittedBy,
    UserSignature,
    UserToken,
    Version,
)

FeedbackTypeName = literal_of(FeedbackType)
FeedbackStatusName = literal_of(FeedbackStatus)
Assignee = Annotated[
    UUID,
    msgspec.Meta(
        description="A member's user_id (GET /members), or null for nobody; anyone else is refused (400)."
    ),
]
ResolutionNote = Annotated[str, msgspec.Meta(max_length=5000)]
DuplicateOf = Annotated[
    UUID,
    msgspec.Meta(
        description="The id of the item of the same project this one repeats: this item is closed and linked "
        "to it, which counts it in its duplicate_count; null unlinks (the status stays)."
    ),
]


class FeedbackCreateBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/feedback: source is Manual."""

    message: FeedbackMessage
    type: FeedbackTypeName = "Other"
    status: FeedbackStatusName = "New"
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    metadata: Metadata | None = None


class FeedbackPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """PATCH /projects/{project_id}/feedback/{feedback_id}: any subset of these fields."""

    message: FeedbackMessage | msgspec.UnsetType = msgspec.UNSET
    type: FeedbackTypeName | msgspec.UnsetType = msgspec.UNSET
    status: FeedbackStatusName | msgspec.UnsetType = msgspec.UNSET
    resolution_note: ResolutionNote | msgspec.UnsetType | None = msgspec.UNSET
    archived: bool | msgspec.UnsetType = msgspec.UNSET
    assignee: Assignee | msgspec.UnsetType | None = msgspec.UNSET
    """A member's user_id (GET /members), or null; assigning a New item makes it Assigned."""
    duplicate_of: DuplicateOf | msgspec.UnsetType | None = msgspec.UNSET
    spam: bool | msgspec.UnsetType = msgspec.UNSET
    """false marks an item judged spam as real and sends what was held back (its feedback.created
    webhook, notifications); true moves it to the spam list, out of every count."""


class PublicFeedbackBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /feedback/submit (public): source Widget, status New. The NPS widget sends {"nps": score}
    as the metadata of a comment."""

    project_key: UUID
    message: PublicFeedbackMessage
    type: FeedbackTypeName = "Other"
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    user_signature: UserSignature | None = None
    user_token: UserToken | None = None
    metadata: Metadata | None = None
    notify_email: ContactEmail | None = None
    """"Email me when this is resolved": one mail to this address when the item becomes Resolved."""
    website: Honeypot = ""
    elapsed_ms: ElapsedMs | None = None
