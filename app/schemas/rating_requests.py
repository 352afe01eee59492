"""Request bodies that create ratings, through the API and the public endpoints."""

from __future__ import annotations

from uuid import UUID

import msgspec

from app.db.models.field_rules import literal_of
from app.db.models.rating import RatingType
from app.schemas.fields import MaxStars, Metadata, Path, SubmittedBy, Version


class HelpfulRatingBody(msgspec.Struct, kw_only=True):
    """POST /projects/{project_id}/ratings."""

    value: bool
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None


class PublicHelpfulRatingBody(msgspec.Struct, kw_only=True):
    """POST /rating/submit (public). The helpful widget sends the reason for a No as metadata.reason."""

    project_key: UUID
    value: bool
    path: Path
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    metadata: Metadata | None = None


class RatingObject(msgspec.Struct, kw_only=True):
    """helpful: value boolean; star: integer 1..max_stars (max_stars 1..10, default 5); nps: integer 0..10."""

    type: literal_of(RatingType)  # type: ignore[valid-type]
    value: bool | int
    max_stars: MaxStars | None = None


class RatingContext(msgspec.Struct, kw_only=True):
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    metadata: Metadata | None = None


class TypedRatingBody(msgspec.Struct, kw_only=True):
    """POST /projects/{project_id}/ratings/typed."""

    rating: RatingObject
    context: RatingContext | None = None


class PublicTypedRatingBody(msgspec.Struct, kw_only=True):
    """POST /ratings (public, from the star widget)."""

    project_key: UUID
    rating: RatingObject
    context: RatingContext | None = None
