"""Where group commit writes a batch of ratings: each batch is one committed transaction.

On PostgreSQL a batch is a single statement on a connection of the writer's own, in autocommit: the
rows and their counter deltas travel as two JSON documents that `json_to_recordset` turns back into
rows, so a batch of any size costs one round trip and no SQL compilation. Elsewhere (the SQLite
default) a batch goes through the ORM session and add_ratings, as the API's writes do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol
from uuid import UUID

import msgspec
import psycopg
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.services.rating_counters import count_deltas
from app.services.rating_input import RatingInput
from app.services.rating_writer import NewRating, add_ratings, new_ratings

Row = tuple[UUID, RatingInput]


class RatingBatches(Protocol):
    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        """Store and count these ratings in one transaction and commit it, or raise."""
        ...

    async def close(self) -> None: ...


class SessionRatingBatches:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession]) -> None:
        self._session_maker = session_maker

    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        async with self._session_maker() as session:
            ratings = await add_ratings(session, batch)
            await session.commit()
        return ratings

    async def close(self) -> None:
        return None


_INSERT_AND_COUNT = """
WITH stored AS (
    INSERT INTO ratings (id, project_id, rating_type, value, max_stars, path, version, submitted_by,
                         metadata, archived, created_at, updated_at)
    SELECT id, project_id, rating_type, value, max_stars, path, version, submitted_by,
           custom_data, false, created_at, created_at
    FROM json_to_recordset(%(ratings)s::json)
         AS new(id uuid, project_id uuid, rating_type text, value int, max_stars int, path text,
                version text, submitted_by text, custom_data jsonb, created_at timestamptz)
)
INSERT INTO rating_counters AS counter (project_id, rating_type, path, day, scale, value, count)
SELECT project_id, rating_type, path, day, scale, value, count
FROM ROWS FROM (json_to_recordset(%(deltas)s::json) AS (project_id uuid, rating_type text, path text,
                                                        day date, scale int, value int, count bigint))
     WITH ORDINALITY AS delta(project_id, rating_type, path, day, scale, value, count, position)
ORDER BY position
ON CONFLICT (project_id, rating_type, path, day, scale, value)
DO UPDATE SET count = counter.count + excluded.count
"""
"""The batch travels as two JSON documents (msgspec encodes them in C; psycopg's array adaptation costs
far more per row). The counter deltas arrive sorted and are applied in that order, the order of every
other counter write (add_to_counters), so concurrent transactions lock counter rows alike and cannot
deadlock."""

_DELTA_FIELDS = ("project_id", "rating_type", "path", "day", "scale", "value")


class PostgresRatingBatches:
    def __init__(self, database_url: str) -> None:
        self._conninfo = (
            make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._connection: psycopg.AsyncConnection[object] | None = None

    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        ratings = new_ratings(batch)
        deltas = [
            {**dict(zip(_DELTA_FIELDS, key, strict=True)), "count": n}
            for key, n in sorted(count_deltas(ratings, +1).items())
        ]
        connection = await self._connected()
        await connection.execute(
            _INSERT_AND_COUNT,
            {"ratings": _json(ratings), "deltas": _json(deltas)},
        )
        return ratings

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    async def _connected(self) -> psycopg.AsyncConnection[object]:
        """The writer's connection, opened again after it broke (say, the database restarted)."""
        if self._connection is None or self._connection.closed:
            self._connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        return self._connection


def rating_batches(settings: Settings, session_maker: async_sessionmaker[AsyncSession]) -> RatingBatches:
    """The batch writer for the configured database."""
    if settings.is_sqlite:
        return SessionRatingBatches(session_maker)
    return PostgresRatingBatches(settings.database_url)


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()
