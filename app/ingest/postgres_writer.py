"""A batch writer's own PostgreSQL connection, in autocommit: a batch written as one statement is one
round trip and one transaction. Ratings and survey responses each have one.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from app.db.config import CONNECT_TIMEOUT_SECONDS, STATEMENT_TIMEOUT_MS

WRITE_DEADLINE_SECONDS = 5.0
"""A batch not committed by then is answered 503. PostgreSQL cancels a slow statement itself; this
covers a server that accepted the connection and then stopped answering (frozen, unreachable)."""


class AutocommitWriter:
    def __init__(self, database_url: str, noun: str) -> None:
        """`noun` names a batch's rows in the timeout's message ("rating")."""
        self._conninfo = (
            make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._noun = noun
        self._cursor: psycopg.AsyncCursor[Any] | None = None
        """On the writer's own connection; one cursor serves every batch (one less object per batch)."""
        self._abandoned: set[asyncio.Future[Any]] = set()

    async def execute(self, sql: str, parameters: dict[str, Any]) -> tuple[Any, ...] | None:
        """Runs (and so commits) the statement; its first row, if it returns any. Raises TimeoutError
        when it is not done within WRITE_DEADLINE_SECONDS."""
        writing = asyncio.ensure_future(self._execute(sql, parameters))
        done, _ = await asyncio.wait((writing,), timeout=WRITE_DEADLINE_SECONDS)
        if not done:
            # Not awaited: psycopg's cancellation of a query on a frozen server takes seconds more. The
            # task unwinds on its own and the next batch opens a new connection.
            writing.cancel()
            self._abandoned.add(writing)
            writing.add_done_callback(self._abandoned.discard)
            self._cursor = None
            raise TimeoutError(f"the {self._noun} batch was not committed in time")
        return writing.result()

    async def close(self) -> None:
        if self._cursor is not None:
            await self._cursor.connection.close()
            self._cursor = None

    async def _execute(self, sql: str, parameters: dict[str, Any]) -> tuple[Any, ...] | None:
        cursor = await self._connected()
        await cursor.execute(sql, parameters)
        return await cursor.fetchone() if cursor.description else None

    async def _connected(self) -> psycopg.AsyncCursor[Any]:
        """The writer's cursor, on a connection opened again after it broke (say, the database restarted)."""
        if self._cursor is None or self._cursor.connection.closed:
            connection = await psycopg.AsyncConnection.connect(
                self._conninfo,
                autocommit=True,
                connect_timeout=CONNECT_TIMEOUT_SECONDS,
                options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            )
            self._cursor = connection.cursor()
        return self._cursor
