"""A batch writer's own way into the SQLite file: a synchronous engine used by one thread of its own.

A batch then runs whole in one hop to that thread, where the async driver would take one hop per
statement (each waiting for the event loop's GIL on the way back). Its transactions take the write lock
when they begin (BEGIN IMMEDIATE), so what a batch reads first is what it writes against: no other
writer commits between its reads and its writes. Ratings and survey responses each have one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from advanced_alchemy.config import EngineConfig
from sqlalchemy import Connection, create_engine, event
from sqlalchemy.engine import Dialect, make_url

from app.db.config import tune_sqlite

T = TypeVar("T")


class SqliteWriter:
    def __init__(self, database_url: str, name: str) -> None:
        """`name` names the thread."""
        # advanced-alchemy's JSON serializer, as on the application's engine: JSON is stored alike
        self._engine = create_engine(
            make_url(database_url).set(drivername="sqlite"), json_serializer=EngineConfig().json_serializer
        )
        tune_sqlite(self._engine)
        event.listen(self._engine, "connect", _driver_leaves_transactions_alone)
        event.listen(self._engine, "begin", _begin_immediate)
        self._name = name
        self._thread: ThreadPoolExecutor | None = None

    @property
    def dialect(self) -> Dialect:
        return self._engine.dialect

    async def run(self, write: Callable[[Connection], T]) -> T:
        """`write` run in one transaction on the writer's thread, committed unless it raises."""
        if self._thread is None:  # opened again after close(), as an application restarted in-process
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._name)
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._transaction, write)

    async def close(self) -> None:
        """Closes the connection in the thread that opened it, as sqlite3 requires."""
        if self._thread is None:
            return
        await asyncio.get_running_loop().run_in_executor(self._thread, self._engine.dispose)
        self._thread.shutdown(wait=True)
        self._thread = None

    def _transaction(self, write: Callable[[Connection], T]) -> T:
        with self._engine.begin() as connection:
            return write(connection)


def _driver_leaves_transactions_alone(dbapi_connection: Any, _record: Any) -> None:
    """sqlite3 would open a deferred transaction at the first write itself; the engine begins it."""
    dbapi_connection.isolation_level = None


def _begin_immediate(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")
