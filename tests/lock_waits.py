"""Racing two transactions on PostgreSQL deterministically: one holds rows while the test watches the
other wait for them (pg_stat_activity), and asks which rows a waiting transaction already holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from tests import databases

Maker = async_sessionmaker[AsyncSession]


@asynccontextmanager
async def emptied_postgres(postgres_url: str) -> AsyncIterator[tuple[Settings, Maker]]:
    """Settings and sessions on the worker's PostgreSQL database, emptied first."""
    databases.postgres_empty(postgres_url)
    settings = Settings(
        database_url=postgres_url, secret_key="test", embeddings="off", webhook_allow_private=True
    )
    config = build_db_config(settings)
    try:
        yield settings, config.create_session_maker()
    finally:
        await config.get_engine().dispose()


async def until_waiting_on_a_lock(session_maker: Maker, waiter: asyncio.Task[Any]) -> None:
    """Until a transaction of this database waits for a row lock (or `waiter` has ended)."""
    async with session_maker() as session:
        for _ in range(400):
            waiting = await session.scalar(
                select(func.count())
                .select_from(text("pg_stat_activity"))
                .where(text("datname = current_database() AND wait_event_type = 'Lock'"))
            )
            await session.rollback()
            if waiting or waiter.done():
                return
            await asyncio.sleep(0.025)
    raise AssertionError("no transaction ever waited for a row lock")


async def is_locked(session_maker: Maker, key: Any, ident: UUID) -> bool:
    """Whether another transaction holds a lock on the row of `key` (a primary key column) = `ident`
    that an UPDATE would wait for."""
    async with session_maker() as session:
        try:
            await session.execute(
                select(key).where(key == ident).with_for_update(key_share=True, nowait=True)
            )
        except OperationalError:
            return True
        finally:
            await session.rollback()
    return False


async def held_while_it_waits(
    session_maker: Maker,
    held: tuple[Any, UUID],
    work: Coroutine[Any, Any, Any],
    asked: Sequence[tuple[Any, UUID]],
) -> list[bool]:
    """Hold the row `held` (a primary key column and its value), run `work` until a transaction waits
    for a lock, and say of each row in `asked` whether it is locked meanwhile; then let `work` finish."""
    key, ident = held
    async with session_maker() as holding:
        await holding.execute(select(key).where(key == ident).with_for_update())
        waiter = asyncio.create_task(work)
        await until_waiting_on_a_lock(session_maker, waiter)
        answers = [await is_locked(session_maker, column, value) for column, value in asked]
        await holding.rollback()
    await waiter
    return answers


async def move_to_the_end(session: AsyncSession, table: str, ident: UUID, *, indexed: str = "id") -> None:
    """Write the row again with `indexed` (a column of one of the table's indexes) changed by one step
    (or unchanged, for the id): its new version lies after the table's other rows, so a scan meets it
    last; and a changed indexed column makes it a new entry of every index (not a HOT update), so that
    index scans meet it last among equal keys too."""
    value = "id" if indexed == "id" else f"{indexed} + 1"
    await session.execute(text(f"UPDATE {table} SET {indexed} = {value} WHERE id = :id"), {"id": ident})
