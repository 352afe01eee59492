"""Where a batch of new responses to surveys without max_responses is written without the locking
path's round trips: one hop to a writer thread on SQLite, one statement in autocommit on PostgreSQL,
each on a connection of the writer's own, as the rating batches are (app/ingest).

The batch was judged against this worker's copies of its surveys (response_writer.judge_unlocked). The
write itself checks that every one of them is still active, without max_responses and at the
updated_at the copy has (PostgreSQL: the surveys locked for share in the same statement; SQLite: read
under the write lock its transaction begins with), and stores nothing otherwise: the caller then sends
the batch the locking way, which reads the surveys again.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Connection, Table, bindparam, select

from app.config import Settings
from app.db.counter_upsert import counter_rows
from app.db.json_records import add_to_counters, insert_records, typed
from app.db.models import Survey, SurveyCounter, SurveyResponse
from app.ingest import AutocommitWriter, SqliteWriter
from app.surveys.response_writer import (
    ACTIVE,
    RESPONSE_COLUMNS,
    UnlockedBatch,
    delta_document,
    json_document,
    sqlite_statements,
)

_SURVEYS: Table = Survey.__table__  # type: ignore[assignment]
_RESPONSES: Table = SurveyResponse.__table__  # type: ignore[assignment]
_COUNTERS: Table = SurveyCounter.__table__  # type: ignore[assignment]
_UNCHANGED = "(SELECT unchanged FROM checked)"
_VERSION = typed({"id": _SURVEYS.c.id, "updated_at": _SURVEYS.c.updated_at})
INSERT_IF_UNCHANGED = f"""
WITH current AS (
    SELECT s.id FROM {_SURVEYS.name} AS s
    JOIN json_to_recordset(%(versions)s::json) AS v({_VERSION})
    ON s.id = v.id AND s.updated_at = v.updated_at
    WHERE s.status = '{ACTIVE}' AND s.max_responses IS NULL
    FOR SHARE OF s
),
checked AS (SELECT count(*) = %(surveys)s AS unchanged FROM current),
stored AS ({insert_records(_RESPONSES, {column: column for column in RESPONSE_COLUMNS}, "responses")}
    WHERE {_UNCHANGED}),
counted AS ({add_to_counters(_COUNTERS, "deltas", f"WHERE {_UNCHANGED} ")})
SELECT unchanged FROM checked
"""
"""PostgreSQL: the batch's surveys locked for share (a change or deletion waits for this statement) and
checked, then its responses and counter deltas written only when all are as judged: one round trip."""

_CURRENT = (
    select(_SURVEYS.c.id, _SURVEYS.c.updated_at)
    .where(_SURVEYS.c.id.in_(bindparam("ids", expanding=True)))
    .where(_SURVEYS.c.status == ACTIVE, _SURVEYS.c.max_responses.is_(None))
)


class UnlockedBatches(Protocol):
    async def write(self, batch: UnlockedBatch) -> bool:
        """Stores and commits the batch's new responses and counters; False (nothing stored) when a
        survey is no longer as it was judged against. Raises when the database fails."""
        ...

    async def close(self) -> None: ...


class SqliteUnlockedBatches:
    def __init__(self, database_url: str) -> None:
        self._writer = SqliteWriter(database_url, "survey-batches")
        self._statements = sqlite_statements(self._writer.dialect)

    async def write(self, batch: UnlockedBatch) -> bool:
        rows, deltas = batch.rows(), counter_rows(batch.deltas)

        def write(connection: Connection) -> bool:
            current = connection.execute(_CURRENT, {"ids": list(batch.versions)})
            if {survey_id: at for survey_id, at in current} != batch.versions:
                return False
            self._statements.insert.executemany(connection, rows)
            self._statements.counters.executemany(connection, deltas)
            return True

        return await self._writer.run(write)

    async def close(self) -> None:
        await self._writer.close()


class PostgresUnlockedBatches:
    def __init__(self, database_url: str) -> None:
        self._writer = AutocommitWriter(database_url, "survey response")

    async def write(self, batch: UnlockedBatch) -> bool:
        versions = [{"id": survey_id, "updated_at": at} for survey_id, at in batch.versions.items()]
        documents = {
            "versions": json_document(versions),
            "surveys": len(versions),
            "responses": json_document(batch.new),
            "deltas": delta_document(batch.deltas),
        }
        row = await self._writer.execute(INSERT_IF_UNCHANGED, documents)
        return bool(row and row[0])

    async def close(self) -> None:
        await self._writer.close()


def unlocked_batches(settings: Settings) -> UnlockedBatches:
    """The writer for the configured database."""
    if settings.is_sqlite:
        return SqliteUnlockedBatches(settings.database_url)
    return PostgresUnlockedBatches(settings.database_url)
