"""Group commit: a batch is one transaction; a row is acknowledged only if the commit that holds it succeeded.

How concurrent submissions come to share a batch is tested with the intake (public/test_rating_intake.py).
"""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import Rating, RatingCounter, RatingTotal
from app.db.transactions import unit_of_work
from app.errors import Unavailable
from app.ingest import NewRating, RatingInput, add_ratings
from app.ingest.batches import RatingBatches, rating_batches
from app.ingest.group_commit import RatingGroupCommit
from app.ingest.postgres_batches import PostgresRatingBatches
from app.ingest.sqlite_batches import SqliteRatingBatches
from tests import databases
from tests.factories import Tenant, add_project, make_tenant
from tests.rating_clock import rate_at


def helpful(value: bool, path: str = "/a") -> RatingInput:
    return RatingInput(rating_type="helpful", value=int(value), path=path)


async def test_a_row_that_cannot_be_stored_fails_alone(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    writer = RatingGroupCommit(rating_batches(settings))
    gone = uuid.uuid4()  # a project deleted between lookup and write: the foreign key refuses it
    outcomes = await writer.write([(gone if i == 5 else tenant.project.id, helpful(True)) for i in range(20)])
    await writer.close()
    assert isinstance(outcomes[5], Unavailable)
    assert all(isinstance(o, NewRating) for i, o in enumerate(outcomes) if i != 5)
    async with unit_of_work(session_maker) as session:
        stored = await session.scalar(select(func.count()).select_from(Rating))
    assert stored == 19


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_when_the_database_is_down_every_request_in_the_batch_fails(tenant: Tenant, kind: str) -> None:
    batches: RatingBatches = (
        SqliteRatingBatches("sqlite+aiosqlite:////nonexistent-folder/hearken.db")
        if kind == "sqlite"
        else PostgresRatingBatches("postgresql+psycopg://postgres@127.0.0.1:1/nowhere")
    )
    writer = RatingGroupCommit(batches)
    outcomes = await writer.write([(tenant.project.id, helpful(True)) for _ in range(10)])
    await writer.close()
    assert len(outcomes) == 10
    assert all(isinstance(o, Unavailable) for o in outcomes)


async def test_after_its_connection_is_lost_the_writer_reconnects(postgres_url: str) -> None:
    """A database restart costs the batch that was in flight (503), not every batch after it."""
    databases.postgres_empty(postgres_url)
    config = build_db_config(Settings(database_url=postgres_url, secret_key="test"))
    tenant = await make_tenant(config.create_session_maker())
    await config.get_engine().dispose()
    batches = PostgresRatingBatches(postgres_url)
    writer = RatingGroupCommit(batches)
    row = (tenant.project.id, helpful(True))
    assert isinstance((await writer.write([row]))[0], NewRating)
    pid = batches._writer._cursor.connection.info.backend_pid  # type: ignore[union-attr]
    libpq = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    async with await psycopg.AsyncConnection.connect(libpq, autocommit=True) as admin:
        await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    assert isinstance((await writer.write([row]))[0], Unavailable)
    [stored] = await writer.write([(tenant.project.id, helpful(False))])
    await writer.close()
    assert isinstance(stored, NewRating)
    assert stored.value == 0


async def test_on_sqlite_the_batch_writer_stores_what_the_orm_stores(
    tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQLite batch writer bypasses SQLAlchemy's parameter handling: every stored value, down to its
    SQLite type and text, must still be what add_ratings writes."""
    database = tmp_path / "hearken.db"
    shutil.copy(sqlite_template, database)
    url = f"sqlite+aiosqlite:///{database}"
    config = build_db_config(Settings(database_url=url, secret_key="test"))
    session_maker = config.create_session_maker()
    tenant = await make_tenant(session_maker)
    other = await add_project(session_maker, tenant, name="other")
    item = RatingInput(
        rating_type="star", value=4, max_stars=5, path="/docs/ünïcode", version="2.1",
        submitted_by="user_7", custom_data={"plan": "pro", "seats": 3, "trial": True, "ref": None},
    )  # fmt: skip
    moment = datetime(2026, 11, 21, 9, 30, 15, 123456, tzinfo=UTC)
    rate_at(monkeypatch, moment)
    batches = SqliteRatingBatches(url)
    await batches.write([(tenant.project.id, item)])
    await batches.close()
    async with session_maker.begin() as session:
        await add_ratings(session, [(other.id, item)], created_at=moment)
    await config.get_engine().dispose()

    def stored(table: str) -> list[list[tuple[object, ...]]]:
        """Each project's rows, every column shown with its SQLite type; ids by type and length only."""
        with closing(sqlite3.connect(database)) as db:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            shown = ", ".join(
                f"typeof({c}), length({c})" if c == "id" else f"typeof({c}), {c}"
                for c in columns
                if c != "project_id"
            )
            rows = db.execute(f"SELECT project_id, typeof(project_id), {shown} FROM {table}").fetchall()
        by_project: dict[object, list[tuple[object, ...]]] = {}
        for project_id, *values in rows:
            by_project.setdefault(project_id, []).append(tuple(values))
        return [sorted(group, key=repr) for group in by_project.values()]

    for table in ("ratings", "rating_counters", "rating_totals"):
        batched_rows, orm_rows = stored(table)
        assert batched_rows == orm_rows


async def test_the_batch_writer_stores_every_column_as_add_ratings_does(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both writers are built from the ratings table's columns: on either database, a batch stores the
    same row and the same counters that the API's path stores."""
    tenant = await make_tenant(session_maker)
    other = await add_project(session_maker, tenant, name="other")
    item = RatingInput(
        rating_type="star", value=4, max_stars=5, path="/docs/ünïcode", version="2.1",
        submitted_by="user_7", custom_data={"plan": "pro", "seats": 3, "trial": True, "ref": None},
    )  # fmt: skip
    moment = datetime(2026, 11, 21, 9, 30, 15, 123456, tzinfo=UTC)
    rate_at(monkeypatch, moment)
    batches = rating_batches(settings)
    await batches.write([(tenant.project.id, item)])
    await batches.close()
    async with session_maker.begin() as session:
        await add_ratings(session, [(other.id, item)], created_at=moment)

    async def stored(table: Table) -> dict[object, list[tuple[object, ...]]]:
        """Each project's rows, without their ids."""
        shown = [column for column in table.columns if column.name not in ("id", "project_id")]
        async with unit_of_work(session_maker) as session:
            rows = (await session.execute(select(table.c.project_id, *shown))).all()
        by_project: dict[object, list[tuple[object, ...]]] = {}
        for project_id, *values in rows:
            by_project.setdefault(project_id, []).append(tuple(values))
        return {project: sorted(group, key=repr) for project, group in by_project.items()}

    for model in (Rating, RatingCounter, RatingTotal):
        rows = await stored(model.__table__)  # type: ignore[arg-type]
        assert rows[tenant.project.id] == rows[other.id], model.__tablename__
