"""Adds deltas to a counters table (rating_counters, feedback_counters) in the caller's transaction.

One cached single-row upsert per table runs as an executemany: compiled once, not once per batch
shape. Keys are applied in sorted order, so concurrent transactions take row locks in the same order
and cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


async def add_to_counters(session: AsyncSession, table: Table, deltas: Mapping[tuple[Any, ...], int]) -> None:
    """`deltas` maps a key (the table's primary-key values, in column order) to what its count gains."""
    columns = _key_columns(table)
    rows = [dict(zip((*columns, "count"), (*key, n), strict=True)) for key, n in sorted(deltas.items()) if n]
    if rows:
        await session.execute(_upsert(session.get_bind().dialect.name, table), rows)


def _key_columns(table: Table) -> tuple[str, ...]:
    return tuple(column.name for column in table.primary_key.columns)


@cache
def _upsert(dialect: str, table: Table) -> Any:
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(table)
    return statement.on_conflict_do_update(
        index_elements=list(_key_columns(table)),
        set_={"count": table.c["count"] + statement.excluded["count"]},
    )
