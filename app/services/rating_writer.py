"""Writes ratings together with their counters. Callers commit: one request, or one batch of many."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from sqlalchemy import false, insert, update
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.db.models import Rating
from app.services.rating_counters import CountedRating, apply_counts
from app.services.rating_input import RatingInput
from app.timestamps import utc_now

INSERT_RATINGS = insert(Rating.__table__)
"""A Core insert of plain rows: the hot path builds no ORM objects, and one statement serves any batch."""


class NewRating(msgspec.Struct, frozen=True, gc=False):
    """A rating add_ratings has just written (not archived), with the attributes of a stored Rating.

    A msgspec Struct, as are the other values built per rating on the hot path: it is built several
    times faster than a frozen dataclass, and gc=False keeps it out of the collector's work (it holds
    no reference back to anything that could hold it)."""

    id: UUID
    project_id: UUID
    rating_type: str
    value: int
    max_stars: int | None
    path: str | None
    version: str | None
    submitted_by: str | None
    custom_data: dict[str, Any] | None
    created_at: datetime
    archived: bool = False

    def row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "project_id": self.project_id,
            "rating_type": self.rating_type,
            "value": self.value,
            "max_stars": self.max_stars,
            "path": self.path,
            "version": self.version,
            "submitted_by": self.submitted_by,
            "metadata": self.custom_data,
            "archived": False,
            "created_at": self.created_at,
            "updated_at": self.created_at,
        }


async def add_ratings(
    session: AsyncSession, items: Sequence[tuple[UUID, RatingInput]], *, created_at: datetime | None = None
) -> list[NewRating]:
    """Insert one rating per (project_id, input) and count them, in the caller's transaction.

    Ids and timestamps are set here so that one executemany serves a whole batch and the counters are
    keyed by the same UTC day the row carries. `created_at` is for imports of history.
    """
    ratings = new_ratings(items, created_at=created_at)
    if ratings:
        await session.execute(INSERT_RATINGS, [rating.row() for rating in ratings])
        await apply_counts(session, ratings, +1)
    return ratings


def new_ratings(
    items: Sequence[tuple[UUID, RatingInput]], *, created_at: datetime | None = None
) -> list[NewRating]:
    """The rows to write, with their ids and timestamps: one moment for a whole batch."""
    now = created_at or utc_now()
    return [
        NewRating(
            id=uuid7(),
            project_id=project_id,
            rating_type=str(item.rating_type),
            value=item.value,
            max_stars=item.max_stars,
            path=item.path,
            version=item.version,
            submitted_by=item.submitted_by,
            custom_data=item.custom_data,
            created_at=now,
        )
        for project_id, item in items
    ]


async def archive_rating(session: AsyncSession, rating: CountedRating) -> bool:
    """Soft-delete: the row stays, counters drop it. Idempotent: False when it was already archived."""
    result = await session.execute(
        update(Rating)
        .where(Rating.id == rating.id, Rating.archived == false())
        .values(archived=True, updated_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    await apply_counts(session, [rating], -1)
    return True
