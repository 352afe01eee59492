"""Request bodies that create ratings, through the API and the public endpoints."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from app.db.models.field_rules import literal_of
from app.db.models.rating import RatingType
from app.schemas.fields import MaxStars, Metadata, Path, SubmittedBy, UserSignature, Version


class HelpfulRatingBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/ratings."""

    value: bool
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None


class PublicHelpfulRatingBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /rating/submit (public). The helpful widget sends the reason for a No as metadata.reason."""

    project_key: UUID
    value: bool
    path: Path
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    user_signature: UserSignature | None = None
    metadata: Metadata | None = None


class RatingObject(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """helpful: value boolean; star: integer 1..max_stars (max_stars 1..10, default 5); nps: integer 0..10.
    Its OpenAPI schema is RATING_OBJECT_SCHEMA: the value's rules depend on the type, which one struct
    cannot say."""

    type: literal_of(RatingType)  # type: ignore[valid-type]
    value: bool | int
    max_stars: MaxStars | None = None


class RatingContext(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    path: Path | None = None
    version: Version | None = None
    submitted_by: SubmittedBy | None = None
    metadata: Metadata | None = None


class PublicRatingContext(RatingContext, kw_only=True, forbid_unknown_fields=True):
    user_signature: UserSignature | None = None


class TypedRatingBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/ratings/typed."""

    rating: RatingObject
    context: RatingContext | None = None


class PublicTypedRatingBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /ratings (public, from the star widget)."""

    project_key: UUID
    rating: RatingObject
    context: PublicRatingContext | None = None


def _rating_variant(kind: str, value: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "title": f"{kind.capitalize()}Rating",
        "description": description,
        "properties": {
            "type": {"type": "string", "enum": [kind]},
            "value": value,
            "max_stars": {
                "oneOf": [{"type": "integer", "minimum": 1, "maximum": 10}, {"type": "null"}],
                "description": "Stars offered, 1 to 10 (default 5); read for star ratings only.",
            },
        },
        "required": ["type", "value"],
    }


_STARS_UP_TO_MAX = [
    {
        "if": {"properties": {"max_stars": {"type": "integer", "maximum": stars}}, "required": ["max_stars"]},
        "then": {"properties": {"value": {"type": "integer", "maximum": stars}}},
    }
    for stars in range(1, 10)
] + [
    {
        "if": {"properties": {"max_stars": {"type": "integer"}}, "required": ["max_stars"]},
        "else": {"properties": {"value": {"type": "integer", "maximum": 5}}},
    }
]
RATING_OBJECT_SCHEMA: dict[str, Any] = {
    "oneOf": [
        _rating_variant("helpful", {"type": "boolean"}, "Was this helpful: true or false."),
        {
            **_rating_variant(
                "star", {"type": "integer", "minimum": 1, "maximum": 10}, "1 to max_stars stars."
            ),
            "allOf": _STARS_UP_TO_MAX,
        },
        _rating_variant(
            "nps", {"type": "integer", "minimum": 0, "maximum": 10}, "Net Promoter score 0 to 10."
        ),
    ],
}
