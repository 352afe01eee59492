"""The SQLite batch writer (the default database): a batch runs whole in one thread of the writer's own,
on a synchronous engine over the same file. That is one hop to the thread per batch, where the async
driver would take one per statement; the statements go straight to the driver (driver_statements.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from advanced_alchemy.config import EngineConfig
from sqlalchemy import Table, create_engine
from sqlalchemy.engine import Dialect, make_url

from app.db.config import tune_sqlite
from app.db.counter_upsert import counter_rows, upsert_columns, upsert_sql
from app.db.models import Rating, RatingCounter, RatingTotal
from app.ingest.driver_statements import DriverStatement
from app.ingest.rating_counters import count_deltas, total_deltas
from app.ingest.rating_rows import RATING_COLUMN_NAMES, NewRating, Row, new_ratings, rating_values


class SqliteRatingBatches:
    def __init__(self, database_url: str) -> None:
        # advanced-alchemy's JSON serializer, as on the application's engine: metadata is stored alike
        self._engine = create_engine(
            make_url(database_url).set(drivername="sqlite"), json_serializer=EngineConfig().json_serializer
        )
        tune_sqlite(self._engine)
        self._thread: ThreadPoolExecutor | None = None
        dialect = self._engine.dialect
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
        if self._thread is None:  # opened again after close(), as an application restarted in-process
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rating-batches")
        await asyncio.get_running_loop().run_in_executor(self._thread, self._write, ratings)
        return ratings

    async def close(self) -> None:
        """Closes the connection in the thread that opened it, as sqlite3 requires."""
        if self._thread is None:
            return
        await asyncio.get_running_loop().run_in_executor(self._thread, self._engine.dispose)
        self._thread.shutdown(wait=True)
        self._thread = None

    def _write(self, ratings: list[NewRating]) -> None:
        deltas = count_deltas(ratings, +1)
        with self._engine.begin() as connection:
            self._insert_ratings.executemany(connection, map(rating_values, ratings))
            self._counters.executemany(connection, counter_rows(deltas))
            self._totals.executemany(connection, counter_rows(total_deltas(deltas)))


def counter_upsert(table: Table, dialect: Dialect) -> DriverStatement:
    """Adds (key..., count) rows to a counters table, in the caller's transaction (surveys use it too)."""
    columns = upsert_columns(table)
    return DriverStatement(
        upsert_sql(table, f"VALUES ({', '.join('?' * len(columns))})"), table, columns, dialect
    )
