"""PostgreSQL statements that read their rows from JSON documents: `json_to_recordset` turns a document
(a list of objects, encoded once) back into typed rows, so a batch of any size travels as one parameter
and costs one round trip and no SQL compilation. The rating and survey batch writers build their
statements from these; parameters are psycopg's (`%(name)s`), for the driver's own execute.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Table
from sqlalchemy.dialects import postgresql

from app.db.counter_upsert import upsert_columns, upsert_sql

_DIALECT = postgresql.dialect()


def typed(fields: dict[str, Column[Any]]) -> str:
    """A record definition for json_to_recordset: each field with the type of its column."""
    return ", ".join(f"{name} {column.type.compile(dialect=_DIALECT)}" for name, column in fields.items())


def insert_records(table: Table, columns: dict[str, str], document: str) -> str:
    """The rows of the `document` inserted into `table`: `columns` maps each column filled to the field of
    the document's objects it is filled from."""
    fields = {field: table.c[column] for column, field in columns.items()}
    return (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"SELECT {', '.join(columns.values())} "
        f"FROM json_to_recordset(%({document})s::json) AS new({typed(fields)})"
    )


def add_to_counters(table: Table, document: str, where: str = "") -> str:
    """The upsert of the `document`'s deltas (records of upsert_columns), applied in the document's order."""
    columns = upsert_columns(table)
    names = ", ".join(columns)
    fields = {name: table.c[name] for name in columns}
    records = (
        f"ROWS FROM (json_to_recordset(%({document})s::json) AS ({typed(fields)})) "
        f"WITH ORDINALITY AS delta({names}, position)"
    )
    return upsert_sql(table, f"SELECT {names} FROM {records} {where}ORDER BY position")
