"""Writes ratings together with their counters in the caller's transaction: the API's path (one request,
or an import of history). Public submissions are stored in batches by the batch writers instead."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import ColumnElement, delete, false, insert, select, update
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


async def delete_ratings(
    session: AsyncSession, where: Iterable[ColumnElement[bool]], *, limit: int | None = None
) -> int:
    """Delete for good the ratings matching `where` (at most `limit`, oldest first) and take the ones
    not archived off the counters, in the caller's transaction; returns how many went. The rows are
    locked first, so a concurrent archive cannot take the same rating off the counters twice."""
    query = select(Rating).where(*where).order_by(Rating.created_at, Rating.id).with_for_update()
    ratings = list(await session.scalars(query if limit is None else query.limit(limit)))
    if not ratings:
        return 0
    await apply_counts(session, [r for r in ratings if not r.archived], -1)
    ids = [r.id for r in ratings]
    for start in range(0, len(ids), 500):
        await session.execute(
            delete(Rating)
            .where(Rating.id.in_(ids[start : start + 500]))
            .execution_options(synchronize_session=False)
        )
    for rating in ratings:
        session.expunge(rating)
    return len(ratings)
