"""The PostgreSQL batch writer: a batch is a single statement on a connection of the writer's own, in
autocommit (postgres_writer.py). The rows, their counter deltas and totals travel as JSON documents that
`json_to_recordset` turns back into rows, so a batch of any size costs one round trip and no SQL compilation.

The statement is built once from the tables (app/db/json_records.py): the ratings' columns from
RATING_COLUMNS, each counter upsert from `upsert_sql`, each record's fields typed as their columns are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from sqlalchemy import Table

from app.db.counter_upsert import counter_rows, upsert_columns
from app.db.json_records import add_to_counters, insert_records
from app.db.models import Rating, RatingCounter, RatingTotal
from app.ingest.postgres_writer import AutocommitWriter
from app.ingest.rating_counters import count_deltas, total_deltas
from app.ingest.rating_rows import RATING_COLUMNS, NewRating, Row, new_ratings

_COUNTERS: Table = RatingCounter.__table__  # type: ignore[assignment]
_TOTALS: Table = RatingTotal.__table__  # type: ignore[assignment]
_INSERT_RATINGS = insert_records(
    Rating.__table__,  # type: ignore[arg-type]
    {c.column.name: c.field for c in RATING_COLUMNS},
    "ratings",
)
"""The ratings of the `ratings` document (NewRatings, by field name) inserted into every rating column."""


INSERT_AND_COUNT = f"""
WITH stored AS ({_INSERT_RATINGS}),
counted AS ({add_to_counters(_COUNTERS, "deltas")} RETURNING 1)
{add_to_counters(_TOTALS, "totals", "WHERE (SELECT count(*) FROM counted) > 0 ")}
"""
"""The batch travels as JSON documents (msgspec encodes them in C; psycopg's array adaptation costs far
more per row). Deltas arrive sorted and are applied in that order, day counters before totals: the
WHERE on `counted` makes PostgreSQL finish the counters before the first total (sub-statements of a
WITH otherwise run in no promised order). That is the order of every other counter write
(apply_counts), so concurrent transactions lock counter rows alike and cannot deadlock."""


def _delta_record(table: Table) -> type[msgspec.Struct]:
    """One record of a counters document: upsert_columns(table) by name, as json_to_recordset reads them
    (a Struct, which msgspec encodes as an object, built per delta faster than a dict)."""
    return msgspec.defstruct(f"{table.name}_delta", [(name, Any) for name in upsert_columns(table)], gc=False)


_DayDelta = _delta_record(_COUNTERS)
_TotalDelta = _delta_record(_TOTALS)


class PostgresRatingBatches:
    def __init__(self, database_url: str) -> None:
        self._writer = AutocommitWriter(database_url, "rating")

    async def write(self, batch: Sequence[Row]) -> list[NewRating]:
        ratings = new_ratings(batch)
        deltas = count_deltas(ratings, +1)
        documents = {
            "ratings": _json(ratings),
            "deltas": _json([_DayDelta(*row) for row in counter_rows(deltas)]),
            "totals": _json([_TotalDelta(*row) for row in counter_rows(total_deltas(deltas))]),
        }
        await self._writer.execute(INSERT_AND_COUNT, documents)
        return ratings

    async def close(self) -> None:
        await self._writer.close()


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()
