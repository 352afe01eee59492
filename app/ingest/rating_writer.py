"""Writes ratings together with their counters in the caller's transaction: the API's path (one request,
or an import of history). Public submissions are stored in batches by the batch writers instead."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import false, insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Rating
from app.ingest.rating_counters import CountedRating, apply_counts
from app.ingest.rating_input import RatingInput
from app.ingest.rating_rows import RATING_COLUMN_NAMES, NewRating, new_ratings, rating_values
from app.timestamps import utc_now

INSERT_RATINGS = insert(Rating.__table__)
"""A Core insert of plain rows: no ORM objects are built, and one statement serves any number of rows."""


async def add_ratings(
    session: AsyncSession, items: Sequence[tuple[UUID, RatingInput]], *, created_at: datetime | None = None
) -> list[NewRating]:
    """Insert one rating per (project_id, input) and count them, in the caller's transaction."""
    ratings = new_ratings(items, created_at=created_at)
    if ratings:
        rows = [dict(zip(RATING_COLUMN_NAMES, rating_values(rating), strict=True)) for rating in ratings]
        await session.execute(INSERT_RATINGS, rows)
        await apply_counts(session, ratings, +1)
    return ratings


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
