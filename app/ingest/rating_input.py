"""A rating as a request gives it, and the type-dependent rules that body decoding cannot express.

RatingInput is the input struct of every writer: the fields a request sets on a rating. A new rating
field is added here (and to the model and a migration); the writers store every field of it by name.
"""

from __future__ import annotations

from typing import Any

import msgspec

from app.db.models import RatingType
from app.errors import InvalidRequest
from app.schemas.rating_requests import (
    HelpfulRatingBody,
    PublicHelpfulRatingBody,
    PublicTypedRatingBody,
    RatingObject,
    TypedRatingBody,
)

DEFAULT_MAX_STARS = 5


class RatingInput(msgspec.Struct, frozen=True, gc=False):
    """Field names are the Rating model's attribute names (custom_data is stored as `metadata`).
    A msgspec Struct, as are the other values built per rating on the hot path: built several times
    faster than a frozen dataclass, and gc=False keeps it out of the collector's work (it holds no
    reference back to anything that could hold it)."""

    rating_type: str
    value: int
    """helpful: 1 or 0; star: 1..max_stars; nps: 0..10."""
    max_stars: int | None = None
    path: str | None = None
    version: str | None = None
    submitted_by: str | None = None
    custom_data: dict[str, Any] | None = None
    submitted_by_verified: bool = False
    """Set by the intake when the submission's user_signature matched."""


def helpful_input(body: HelpfulRatingBody | PublicHelpfulRatingBody) -> RatingInput:
    return RatingInput(
        rating_type=RatingType.HELPFUL.value,
        value=int(body.value),
        path=body.path,
        version=body.version,
        submitted_by=body.submitted_by,
        custom_data=body.metadata if isinstance(body, PublicHelpfulRatingBody) else None,
    )


def typed_input(body: TypedRatingBody | PublicTypedRatingBody) -> RatingInput:
    value, max_stars = _checked_value(body.rating)
    context = body.context
    return RatingInput(
        rating_type=body.rating.type,
        value=value,
        max_stars=max_stars,
        path=context.path if context else None,
        version=context.version if context else None,
        submitted_by=context.submitted_by if context else None,
        custom_data=context.metadata if context else None,
    )


def _checked_value(rating: RatingObject) -> tuple[int, int | None]:
    value = rating.value
    if rating.type == RatingType.HELPFUL:
        if not isinstance(value, bool):
            raise InvalidRequest("rating.value", "must be true or false for a helpful rating")
        return int(value), None
    if isinstance(value, bool):
        raise InvalidRequest("rating.value", f"must be an integer for a {rating.type} rating, not a boolean")
    if rating.type == RatingType.STAR:
        max_stars = rating.max_stars or DEFAULT_MAX_STARS
        if not 1 <= value <= max_stars:
            raise InvalidRequest("rating.value", f"must be an integer from 1 to {max_stars} (max_stars)")
        return value, max_stars
    if not 0 <= value <= 10:
        raise InvalidRequest("rating.value", "must be an integer from 0 to 10 for an nps rating")
    return value, None
