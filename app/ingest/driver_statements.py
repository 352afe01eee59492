"""Statements run straight on the database driver, for the SQLite batch writer.

SQLAlchemy's executemany builds one parameter dict per row and converts every value on its way: that
costs more than SQLite's own insert. Here each value still passes through its column type's bind
processor, so it is stored exactly as the ORM stores it; only the per-row machinery is skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, Table
from sqlalchemy.engine import Dialect

Processor = Callable[[Any], Any] | None


class DriverStatement:
    def __init__(self, sql: str, table: Table, columns: Sequence[str], dialect: Dialect) -> None:
        """`sql` takes the values of `columns` as positional `?` parameters, in that order."""
        self._sql = sql
        self._processors: tuple[Processor, ...] = tuple(
            table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in columns
        )

    def executemany(self, connection: Connection, rows: Iterable[Sequence[Any]]) -> None:
        """`rows` hold the values of the statement's columns, in their order."""
        parameters = [
            tuple(
                value if process is None else process(value)
                for value, process in zip(row, self._processors, strict=True)
            )
            for row in rows
        ]
        if parameters:
            connection.exec_driver_sql(self._sql, parameters)
