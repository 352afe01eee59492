"""A new rating as every writer stores it, and the columns of ratings it fills, read from the model's table.

Each column of `Rating.__table__` is filled from the NewRating field named like the model's attribute
for it (`metadata` from custom_data); `updated_at` is `created_at`, since a new rating has not changed.
The API path, the SQLite batch writer and the PostgreSQL batch statement are all built from
RATING_COLUMNS, so a rating field added to the model, its migration and RatingInput reaches every writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from operator import attrgetter
from typing import Any, NamedTuple
from uuid import UUID

from msgspec.structs import astuple
from sqlalchemy import Column
from uuid_utils.compat import uuid7

from app.db.models import Rating
from app.ingest.rating_input import RatingInput
from app.timestamps import utc_now


class NewRating(RatingInput, kw_only=True, frozen=True, gc=False):
    """A rating a writer has just stored (not archived), with the attributes of a stored Rating: the
    input's fields, then what the writer sets."""

    id: UUID
    project_id: UUID
    created_at: datetime
    archived: bool = False


Row = tuple[UUID, RatingInput]
"""A rating to store, and its project's id."""


class RatingColumn(NamedTuple):
    column: Column[Any]
    field: str
    """The NewRating field the column is filled from."""


def _rating_columns() -> tuple[RatingColumn, ...]:
    """Every column but the ORM's insert sentinel (advanced-alchemy adds one to each table; it stays NULL)."""
    mapper = Rating.__mapper__
    fields = NewRating.__struct_fields__
    columns = []
    for column in Rating.__table__.columns:
        if column._insert_sentinel:
            continue
        field = "created_at" if column.name == "updated_at" else mapper.get_property_by_column(column).key
        if field not in fields:
            raise TypeError(
                f"ratings.{column.name} is filled by no field of NewRating: add {field} to RatingInput"
            )
        columns.append(RatingColumn(column, field))
    return tuple(columns)


RATING_COLUMNS = _rating_columns()
RATING_COLUMN_NAMES = tuple(column.column.name for column in RATING_COLUMNS)
rating_values = attrgetter(*(column.field for column in RATING_COLUMNS))
"""A NewRating's values in the order of RATING_COLUMNS, as one tuple (attrgetter builds it in C)."""


def new_ratings(items: Sequence[Row], *, created_at: datetime | None = None) -> list[NewRating]:
    """The ratings to write, with their ids and timestamps: one moment for a whole batch, so that the
    counters are keyed by the same UTC day the rows carry. `created_at` is for imports of history."""
    now = created_at or utc_now()
    return [
        NewRating(*astuple(item), id=uuid7(), project_id=project_id, created_at=now)
        for project_id, item in items
    ]
