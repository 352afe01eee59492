"""Where group commit writes a batch of ratings: each batch is one committed transaction, on a connection
of the batch writer's own. Both writers store exactly the rows and counters that add_ratings writes for
the API."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.config import Settings
from app.ingest.postgres_batches import PostgresRatingBatches
from app.ingest.rating_rows import NewRating, Row
from app.ingest.sqlite_batches import SqliteRatingBatches


class RatingBatches(Protocol):
    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        """Store and count these ratings in one transaction and commit it, or raise."""
        ...

    async def close(self) -> None: ...


def rating_batches(settings: Settings) -> RatingBatches:
    """The batch writer for the configured database."""
    if settings.is_sqlite:
        return SqliteRatingBatches(settings.database_url)
    return PostgresRatingBatches(settings.database_url)
