"""Adds deltas to a counters table (rating_counters, feedback_counters) in the caller's transaction.

One cached single-row upsert per table runs as an executemany: compiled once, not once per batch
shape. Keys are applied in sorted order, so concurrent transactions take row locks in the same order
and cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Table, TextClause, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession


async def add_to_counters(session: AsyncSession, table: Table, deltas: Mapping[tuple[Any, ...], int]) -> None:
    """`deltas` maps a key (the table's primary-key values, in column order) to what its count gains."""
    rows = counter_rows(table, deltas)
    if rows:
        await session.execute(upsert_statement(table), rows)


def counter_rows(table: Table, deltas: Mapping[tuple[Any, ...], int]) -> list[dict[str, Any]]:
    """The upsert's parameters: one row per key that changes, in key order."""
    columns = upsert_columns(table)
    return [dict(zip(columns, (*key, n), strict=True)) for key, n in sorted(deltas.items()) if n]


def _key_columns(table: Table) -> tuple[str, ...]:
    return tuple(column.name for column in table.primary_key.columns)


@cache
def upsert_statement(table: Table) -> TextClause:
    """Written as text, because SQLAlchemy cannot cache its dialect-specific INSERT ... ON CONFLICT and
    would compile it again for every batch; SQLite and PostgreSQL share this syntax. The bind types
    are the columns' own, so values are stored exactly as the ORM stores them."""
    columns = upsert_columns(table)
    sql = upsert_sql(table, [":" + name for name in columns])
    return text(sql).bindparams(*(bindparam(name, type_=table.c[name].type) for name in columns))


def upsert_columns(table: Table) -> tuple[str, ...]:
    """The upsert's parameters, in order: the key columns, then count."""
    return (*_key_columns(table), "count")


def upsert_sql(table: Table, placeholders: Sequence[str]) -> str:
    """The upsert with these placeholders for upsert_columns(table) (named, or `?` for the driver)."""
    keys = _key_columns(table)
    return (
        f"INSERT INTO {table.name} ({', '.join(upsert_columns(table))}) VALUES ({', '.join(placeholders)}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET count = {table.name}.count + excluded.count"
    )
