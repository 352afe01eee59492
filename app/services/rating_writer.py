"""Writes ratings together with their counters. Callers commit: one request, or one batch of many."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import insert, update
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.db.models import Rating
from app.services.rating_counters import apply_counts
from app.services.rating_input import RatingInput
from app.timestamps import utc_now


async def add_ratings(
    session: AsyncSession, items: Sequence[tuple[UUID, RatingInput]], *, created_at: datetime | None = None
) -> list[Rating]:
    """Insert one rating per (project_id, input) and count them, in the caller's transaction.

    Ids and timestamps are set here so that one multi-row INSERT serves a whole batch and the
    counters are keyed by the same UTC day the row carries. `created_at` is for imports of history.
    """
    now = created_at or utc_now()
    ratings = [
        Rating(
            id=uuid7(),
            project_id=project_id,
            rating_type=str(item.rating_type),
            value=item.value,
            max_stars=item.max_stars,
            path=item.path,
            version=item.version,
            submitted_by=item.submitted_by,
            custom_data=item.custom_data,
            archived=False,
            created_at=now,
            updated_at=now,
        )
        for project_id, item in items
    ]
    if ratings:
        await session.execute(insert(Rating), [_row(r) for r in ratings])
        await apply_counts(session, ratings, +1)
    return ratings


async def archive_rating(session: AsyncSession, rating: Rating) -> bool:
    """Soft-delete: the row stays, counters drop it. Idempotent: False when it was already archived."""
    result = await session.execute(
        update(Rating)
        .where(Rating.id == rating.id, Rating.archived.is_(False))
        .values(archived=True, updated_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    await apply_counts(session, [rating], -1)
    return True


def _row(rating: Rating) -> dict[str, object]:
    return {
        "id": rating.id,
        "project_id": rating.project_id,
        "rating_type": rating.rating_type,
        "value": rating.value,
        "max_stars": rating.max_stars,
        "path": rating.path,
        "version": rating.version,
        "submitted_by": rating.submitted_by,
        "custom_data": rating.custom_data,
        "archived": False,
        "created_at": rating.created_at,
        "updated_at": rating.updated_at,
    }
