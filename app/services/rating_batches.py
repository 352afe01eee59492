"""Where group commit writes a batch of ratings: each batch is one committed transaction.

On PostgreSQL a batch is a single statement on a connection of the writer's own, in autocommit: the
rows, their counter deltas and totals travel as JSON documents that `json_to_recordset` turns back into
rows, so a batch of any size costs one round trip and no SQL compilation. On SQLite (the default) a
batch runs whole in one thread of the writer's own, on a synchronous engine over the same file: one
hop to the thread per batch, where the async driver would take one per statement; its statements go
straight to the driver (app/db/driver_statements.py). Both store exactly the rows and counters that
add_ratings writes for the API.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from typing import Protocol
from uuid import UUID

import msgspec
import psycopg
from advanced_alchemy.config import EngineConfig
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from app.config import Settings
from app.db.config import tune_sqlite
from app.db.driver_statements import DriverStatement
from app.db.models import Rating, RatingCounter, RatingTotal
from app.services.counter_upsert import counter_rows, upsert_columns, upsert_sql
from app.services.rating_counters import count_deltas, total_deltas
from app.services.rating_input import RatingInput
from app.services.rating_writer import NewRating, new_ratings

Row = tuple[UUID, RatingInput]


class RatingBatches(Protocol):
    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        """Store and count these ratings in one transaction and commit it, or raise."""
        ...

    async def close(self) -> None: ...


class SqliteRatingBatches:
    def __init__(self, database_url: str) -> None:
        # advanced-alchemy's JSON serializer, as on the application's engine: metadata is stored alike
        self._engine = create_engine(
            make_url(database_url).set(drivername="sqlite"), json_serializer=EngineConfig().json_serializer
        )
        tune_sqlite(self._engine)
        self._thread: ThreadPoolExecutor | None = None
        dialect = self._engine.dialect
        placeholders = ", ".join("?" * len(_RATING_COLUMNS))
        self._insert_ratings = DriverStatement(
            f"INSERT INTO ratings ({', '.join(_RATING_COLUMNS)}) VALUES ({placeholders})",
            Rating.__table__,  # type: ignore[arg-type]
            _RATING_COLUMNS,
            dialect,
        )
        self._counters, self._totals = (
            DriverStatement(
                upsert_sql(table, ["?"] * len(upsert_columns(table))), table, upsert_columns(table), dialect
            )
            for table in (RatingCounter.__table__, RatingTotal.__table__)
        )

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
            self._insert_ratings.executemany(connection, [rating.row() for rating in ratings])
            self._counters.executemany(connection, counter_rows(RatingCounter.__table__, deltas))
            self._totals.executemany(connection, counter_rows(RatingTotal.__table__, total_deltas(deltas)))


_RATING_COLUMNS = (
    "id", "project_id", "rating_type", "value", "max_stars", "path", "version", "submitted_by",
    "metadata", "archived", "created_at", "updated_at",
)  # fmt: skip
"""The keys of NewRating.row(), which are the columns of ratings."""

_INSERT_AND_COUNT = """
WITH stored AS (
    INSERT INTO ratings (id, project_id, rating_type, value, max_stars, path, version, submitted_by,
                         metadata, archived, created_at, updated_at)
    SELECT id, project_id, rating_type, value, max_stars, path, version, submitted_by,
           custom_data, false, created_at, created_at
    FROM json_to_recordset(%(ratings)s::json)
         AS new(id uuid, project_id uuid, rating_type text, value int, max_stars int, path text,
                version text, submitted_by text, custom_data jsonb, created_at timestamptz)
),
counted AS (
    INSERT INTO rating_counters AS counter (project_id, rating_type, path, day, scale, value, count)
    SELECT project_id, rating_type, path, day, scale, value, count
    FROM ROWS FROM (json_to_recordset(%(deltas)s::json) AS (project_id uuid, rating_type text, path text,
                                                            day date, scale int, value int, count bigint))
         WITH ORDINALITY AS delta(project_id, rating_type, path, day, scale, value, count, position)
    ORDER BY position
    ON CONFLICT (project_id, rating_type, path, day, scale, value)
    DO UPDATE SET count = counter.count + excluded.count
    RETURNING 1
)
INSERT INTO rating_totals AS total (project_id, rating_type, path, scale, value, count)
SELECT project_id, rating_type, path, scale, value, count
FROM ROWS FROM (json_to_recordset(%(totals)s::json) AS (project_id uuid, rating_type text, path text,
                                                        scale int, value int, count bigint))
     WITH ORDINALITY AS delta(project_id, rating_type, path, scale, value, count, position)
WHERE (SELECT count(*) FROM counted) > 0
ORDER BY position
ON CONFLICT (project_id, rating_type, path, scale, value)
DO UPDATE SET count = total.count + excluded.count
"""
"""The batch travels as JSON documents (msgspec encodes them in C; psycopg's array adaptation costs far
more per row). Deltas arrive sorted and are applied in that order, day counters before totals: the
WHERE on `counted` makes PostgreSQL finish the counters before the first total (sub-statements of a
WITH otherwise run in no promised order). That is the order of every other counter write
(apply_counts), so concurrent transactions lock counter rows alike and cannot deadlock."""


class _DayDelta(msgspec.Struct, gc=False):
    """One record of the statement's `deltas` document: a CounterKey's fields in order, then the count,
    named as json_to_recordset reads them (a Struct, which msgspec encodes as an object)."""

    project_id: UUID
    rating_type: str
    path: str
    day: date
    scale: int
    value: int
    count: int


class _TotalDelta(msgspec.Struct, gc=False):
    """One record of the statement's `totals` document: a TotalKey's fields in order, then the count."""

    project_id: UUID
    rating_type: str
    path: str
    scale: int
    value: int
    count: int


class PostgresRatingBatches:
    def __init__(self, database_url: str) -> None:
        self._conninfo = (
            make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._cursor: psycopg.AsyncCursor[object] | None = None
        """On the writer's own connection; one cursor serves every batch (one less object per batch)."""

    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        ratings = new_ratings(batch)
        deltas = count_deltas(ratings, +1)
        cursor = await self._connected()
        await cursor.execute(
            _INSERT_AND_COUNT,
            {
                "ratings": _json(ratings),
                "deltas": _json([_DayDelta(*key, n) for key, n in sorted(deltas.items())]),
                "totals": _json([_TotalDelta(*key, n) for key, n in sorted(total_deltas(deltas).items())]),
            },
        )
        return ratings

    async def close(self) -> None:
        if self._cursor is not None:
            await self._cursor.connection.close()
            self._cursor = None

    async def _connected(self) -> psycopg.AsyncCursor[object]:
        """The writer's cursor, on a connection opened again after it broke (say, the database restarted)."""
        if self._cursor is None or self._cursor.connection.closed:
            connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            self._cursor = connection.cursor()
        return self._cursor


def rating_batches(settings: Settings) -> RatingBatches:
    """The batch writer for the configured database."""
    if settings.is_sqlite:
        return SqliteRatingBatches(settings.database_url)
    return PostgresRatingBatches(settings.database_url)


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()
