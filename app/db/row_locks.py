"""Locking rows before changing them, on both databases, so that a change and a delete of the same rows
take their locks in one order and a change finds rows deleted meanwhile gone.

PostgreSQL locks the rows (SELECT ... FOR UPDATE, in the order given, the order every deleter of those
rows locks them in). SQLite has no row locks: its one write lock is taken by a write, so the rows are
written once unchanged; from then on no other transaction can delete them before this one ends.

`lock_in_id_order` is the lighter form for many rows that are then changed by statements whose scan
order is the planner's (a cascade, an UPDATE ... WHERE): the rows are locked in primary-key order first,
so two such writers of the same rows wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute


async def lock_rows(
    session: AsyncSession,
    model: type[Any],
    where: Sequence[ColumnElement[bool]],
    order_by: Sequence[ColumnElement[Any]],
) -> list[Any]:
    """The rows matching `where`, locked for the rest of the transaction and read again (what an earlier
    read of them in this session holds is refreshed); rows deleted meanwhile are not among them."""
    if session.get_bind().dialect.name == "sqlite":
        table = model.__table__
        unchanged = {column.name: column for column in table.columns if column.primary_key or column.onupdate}
        await session.execute(update(table).where(*where).values(unchanged))  # onupdate columns kept too
        query = select(model).where(*where).order_by(*order_by)
    else:
        query = select(model).where(*where).order_by(*order_by).with_for_update()
    rows = await session.scalars(query.execution_options(populate_existing=True))
    return list(rows)


async def lock_in_id_order(
    session: AsyncSession,
    key: InstrumentedAttribute[Any],
    where: Sequence[ColumnElement[bool]],
    *,
    deleting: bool = False,
) -> None:
    """Lock the rows of `key`'s table matching `where` in the order of `key` (their primary key) for the
    rest of the transaction, without loading them: FOR UPDATE when they are to be deleted, else FOR NO
    KEY UPDATE (what an UPDATE of other columns takes). Nothing on SQLite, whose one writer is alone."""
    if session.get_bind().dialect.name == "sqlite":
        return
    await session.execute(select(key).where(*where).order_by(key).with_for_update(key_share=not deleting))
