"""The Rating resource in its two forms: simple (helpful lists) and typed (any type)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

import msgspec
from msgspec import UNSET, UnsetType

from app.db.models import RatingType
from app.schemas.pagination import Pagination
from app.timestamps import iso_z


class StoredRating(Protocol):
    """What the bodies read of a rating: a stored `Rating` row, or the ingest's record of one it has just
    written (the same attribute names)."""

    @property
    def id(self) -> UUID: ...
    @property
    def project_id(self) -> UUID: ...
    @property
    def rating_type(self) -> str: ...
    @property
    def value(self) -> int: ...
    @property
    def max_stars(self) -> int | None: ...
    @property
    def path(self) -> str | None: ...
    @property
    def version(self) -> str | None: ...
    @property
    def submitted_by(self) -> str | None: ...
    @property
    def submitted_by_verified(self) -> bool: ...
    @property
    def custom_data(self) -> dict[str, Any] | None: ...
    @property
    def archived(self) -> bool: ...
    @property
    def created_at(self) -> datetime: ...


class RatingOut(msgspec.Struct):
    """Simple form of a helpful rating: value is a boolean, absent context fields are null."""

    id: str
    project_id: str
    value: bool
    path: str | None
    version: str | None
    submitted_by: str | None
    submitted_by_verified: bool
    """Whether submitted_by came signed with the project's identity secret."""
    archived: bool
    created_at: str

    @classmethod
    def of(cls, rating: StoredRating) -> RatingOut:
        return cls(
            id=str(rating.id),
            project_id=str(rating.project_id),
            value=bool(rating.value),
            path=rating.path,
            version=rating.version,
            submitted_by=rating.submitted_by,
            submitted_by_verified=rating.submitted_by_verified,
            archived=rating.archived,
            created_at=iso_z(rating.created_at),
        )


class RatingValueOut(msgspec.Struct):
    """The rating object as submitted; max_stars only for star ratings (default filled in)."""

    type: RatingType
    value: bool | int
    max_stars: int | UnsetType = UNSET


class TypedRatingOut(msgspec.Struct, kw_only=True):
    """Typed form: context fields appear only when they were given."""

    id: str
    project_id: str
    rating_type: RatingType
    value: RatingValueOut
    path: str | UnsetType = UNSET
    version: str | UnsetType = UNSET
    submitted_by: str | UnsetType = UNSET
    metadata: dict[str, Any] | UnsetType = UNSET
    created_at: str
    archived: bool
    submitted_by_verified: bool
    """Whether submitted_by came signed with the project's identity secret."""

    @classmethod
    def of(cls, rating: StoredRating) -> TypedRatingOut:
        return cls(
            id=str(rating.id),
            project_id=str(rating.project_id),
            rating_type=RatingType(rating.rating_type),
            value=_value_of(rating),
            created_at=iso_z(rating.created_at),
            archived=rating.archived,
            submitted_by_verified=rating.submitted_by_verified,
            path=_given(rating.path),
            version=_given(rating.version),
            submitted_by=_given(rating.submitted_by),
            metadata=UNSET if rating.custom_data is None else rating.custom_data,
        )


class RatingList(msgspec.Struct):
    ratings: list[RatingOut]
    pagination: Pagination


class TypedRatingList(msgspec.Struct):
    ratings: list[TypedRatingOut]
    pagination: Pagination


def _value_of(rating: StoredRating) -> RatingValueOut:
    if rating.rating_type == RatingType.HELPFUL:
        return RatingValueOut(type=rating.rating_type, value=bool(rating.value))
    if rating.rating_type == RatingType.STAR:
        return RatingValueOut(
            type=rating.rating_type, value=rating.value, max_stars=rating.max_stars or UNSET
        )
    return RatingValueOut(type=rating.rating_type, value=rating.value)


def _given(value: str | None) -> str | UnsetType:
    return UNSET if value is None else value
