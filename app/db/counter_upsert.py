"""Adds deltas to a counters table (rating_counters, rating_totals, feedback_counters).

The upsert is written here once, from the table: its key columns, then count. Every writer derives its
form from `upsert_sql`: the cached single-row statement below (run as an executemany in the caller's
transaction), the SQLite batch writer's driver statement and the PostgreSQL batch statement. Keys are
applied in sorted order, so concurrent transactions take row locks in the same order and cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from sqlalchemy import Table, TextClause, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

Deltas = Mapping[tuple[Any, ...], int]
"""A key (the table's primary-key values, in column order) and what its count gains."""


async def add_to_counters(session: AsyncSession, table: Table, deltas: Deltas) -> None:
    """Apply `deltas` to `table` in the caller's transaction."""
    columns = upsert_columns(table)
    rows = [dict(zip(columns, row, strict=True)) for row in counter_rows(deltas)]
    if rows:
        await session.execute(upsert_statement(table), rows)


def counter_rows(deltas: Deltas) -> list[tuple[Any, ...]]:
    """The upsert's parameters, as upsert_columns orders them: one row per key that changes, in key order."""
    return [(*key, n) for key, n in sorted(deltas.items()) if n]


@cache
def upsert_statement(table: Table) -> TextClause:
    """Written as text, because SQLAlchemy cannot cache its dialect-specific INSERT ... ON CONFLICT and
    would compile it again for every batch; SQLite and PostgreSQL share this syntax. The bind types
    are the columns' own, so values are stored exactly as the ORM stores them."""
    columns = upsert_columns(table)
    sql = upsert_sql(table, f"VALUES ({', '.join(':' + name for name in columns)})")
    return text(sql).bindparams(*(bindparam(name, type_=table.c[name].type) for name in columns))


def upsert_columns(table: Table) -> tuple[str, ...]:
    """The upsert's columns, in order: the key columns, then count."""
    return (*key_columns(table), "count")


def key_columns(table: Table) -> tuple[str, ...]:
    return tuple(column.name for column in table.primary_key.columns)


def upsert_sql(table: Table, rows: str) -> str:
    """The upsert of `rows` into upsert_columns(table): a VALUES list (named or `?` placeholders) or a
    SELECT of those columns."""
    return (
        f"INSERT INTO {table.name} ({', '.join(upsert_columns(table))}) {rows} "
        f"ON CONFLICT ({', '.join(key_columns(table))}) "
        f"DO UPDATE SET count = {table.name}.count + excluded.count"
    )
