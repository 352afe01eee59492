"""The SQLite batch writer (the default database): a batch runs whole in one hop to a thread of the
writer's own (sqlite_writer.py); the statements go straight to the driver (driver_statements.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, Table
from sqlalchemy.engine import Dialect

from app.db.counter_upsert import counter_rows, upsert_columns, upsert_sql
from app.db.models import Rating, RatingCounter, RatingTotal
from app.ingest.driver_statements import DriverStatement
from app.ingest.rating_counters import count_deltas, total_deltas
from app.ingest.rating_rows import RATING_COLUMN_NAMES, NewRating, Row, new_ratings, rating_values
from app.ingest.sqlite_writer import SqliteWriter


class SqliteRatingBatches:
    def __init__(self, database_url: str) -> None:
        self._writer = SqliteWriter(database_url, "rating-batches")
        dialect = self._writer.dialect
        self._insert_ratings = DriverStatement(
            f"INSERT INTO {Rating.__tablename__} ({', '.join(RATING_COLUMN_NAMES)}) "
            f"VALUES ({', '.join('?' * len(RATING_COLUMN_NAMES))})",
            Rating.__table__,  # type: ignore[arg-type]
            RATING_COLUMN_NAMES,
            dialect,
        )
        self._counters = counter_upsert(RatingCounter.__table__, dialect)  # type: ignore[arg-type]
        self._totals = counter_upsert(RatingTotal.__table__, dialect)  # type: ignore[arg-type]

    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        ratings = new_ratings(batch)
        deltas = count_deltas(ratings, +1)

        def write(connection: Connection) -> None:
            self._insert_ratings.executemany(connection, map(rating_values, ratings))
            self._counters.executemany(connection, counter_rows(deltas))
            self._totals.executemany(connection, counter_rows(total_deltas(deltas)))

        await self._writer.run(write)
        return ratings

    async def close(self) -> None:
        await self._writer.close()


def counter_upsert(table: Table, dialect: Dialect) -> DriverStatement:
    """Adds (key..., count) rows to a counters table, in the caller's transaction (surveys use it too)."""
    columns = upsert_columns(table)
    return DriverStatement(
        upsert_sql(table, f"VALUES ({', '.join('?' * len(columns))})"), table, columns, dialect
    )
