"""Ratings partitioned by month on PostgreSQL: a filled table converted while submissions go on, the
months made ahead once across processes, and retention dropping whole months with counts kept exact."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from advanced_alchemy.alembic.commands import AlembicCommands
from litestar.testing import AsyncTestClient
from sqlalchemy import Engine, create_engine, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import Project, Rating
from app.db.rating_partitions import MONTHS_AHEAD, ensure_partitions, partitions
from app.db.transactions import unit_of_work
from app.ingest import RatingInput, add_ratings
from app.ingest.postgres_batches import PostgresRatingBatches
from app.main import create_app
from app.services.retention import run_due_retention
from app.timestamps import utc_now
from tests import databases
from tests.counter_recount import assert_counters_match_rows
from tests.factories import Tenant, add_project, make_tenant
from tests.services import require_postgres

pytestmark = pytest.mark.postgres

FILLED = 1_000_000


@pytest.fixture(scope="module")
def own_database() -> Iterator[str]:
    """A database of this module's own: its tests add and drop partitions."""
    require_postgres()
    url = databases.postgres_create()
    yield url
    databases.postgres_drop(url)


@pytest.fixture
def converted_database() -> Iterator[str]:
    """A database for the conversion alone: the others would find the old table as a partition."""
    require_postgres()
    url = databases.postgres_create()
    yield url
    databases.postgres_drop(url)


@pytest.fixture
def url(own_database: str) -> str:
    databases.postgres_empty(own_database)
    return own_database


@pytest.fixture
async def session_maker(url: str) -> Iterator[async_sessionmaker[AsyncSession]]:
    config = build_db_config(Settings(database_url=url, secret_key="test"))
    yield config.create_session_maker()
    await config.get_engine().dispose()


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def where_ratings_are(url: str) -> dict[str, int]:
    with psycopg.connect(libpq(url)) as connection:
        rows = connection.execute("SELECT tableoid::regclass::text, count(*) FROM ratings GROUP BY 1")
        return dict(rows.fetchall())


class Submissions(threading.Thread):
    """Ratings stored one small batch after another by the application's own batch writer, as the
    public endpoint stores them, until stopped: what each batch answered is kept."""

    def __init__(self, url: str, project_id: object) -> None:
        super().__init__(daemon=True)
        self._writer = PostgresRatingBatches(url)
        self._project_id = project_id
        self.stopping = threading.Event()
        self.stored = 0
        self.failures: list[BaseException] = []

    def run(self) -> None:
        asyncio.run(self._submit())

    async def _submit(self) -> None:
        rating = RatingInput(rating_type="helpful", value=1, path="/during")
        while not self.stopping.is_set():
            try:
                self.stored += len(await self._writer.write([(self._project_id, rating)] * 5))
            except Exception as failure:  # every failure is the test's finding
                self.failures.append(failure)
        await self._writer.close()


@pytest.mark.slow
async def test_a_million_ratings_are_partitioned_while_submissions_go_on(converted_database: str) -> None:
    url = converted_database
    settings = Settings(database_url=url, secret_key="test")
    alembic = AlembicCommands(sqlalchemy_config=build_db_config(settings))
    config = build_db_config(settings)
    tenant = await make_tenant(config.create_session_maker())  # by today's models, before going back
    await config.get_engine().dispose()
    await asyncio.to_thread(alembic.downgrade, "0021")
    with psycopg.connect(libpq(url), autocommit=True) as connection:
        connection.execute(
            "INSERT INTO ratings (id, project_id, rating_type, value, archived, submitted_by_verified, "
            "created_at, updated_at) SELECT gen_random_uuid(), %(project)s, 'helpful', i %% 2, false, false, "
            "now() - i * interval '30 seconds', now() FROM generate_series(1, %(rows)s) AS i",
            {"project": tenant.project.id, "rows": FILLED},
        )
    submissions = Submissions(url, tenant.project.id)
    submissions.start()
    try:
        while submissions.stored < 50:
            await asyncio.sleep(0.01)
        before = submissions.stored
        await asyncio.to_thread(alembic.upgrade, "head")
        during = submissions.stored - before
        while submissions.stored < before + during + 50:  # and after
            await asyncio.sleep(0.01)
    finally:
        submissions.stopping.set()
        await asyncio.to_thread(submissions.join)

    assert submissions.failures == []
    assert during > 0
    stored = where_ratings_are(url)
    assert sum(stored.values()) == FILLED + submissions.stored
    [legacy] = [name for name in stored if name.startswith("ratings_before_")]
    assert stored[legacy] >= FILLED
    with psycopg.connect(libpq(url)) as connection:
        kind = connection.execute("SELECT relkind FROM pg_class WHERE relname = 'ratings'").fetchone()
        assert kind == ("p",)
        # the old table moved into place as it was: its index serves the new primary key
        plan = connection.execute(
            "EXPLAIN SELECT * FROM ratings WHERE id = (SELECT id FROM ratings LIMIT 1)"
        ).fetchall()
        assert any(f"{legacy}_pkey" in line for (line,) in plan)


def months(created: list[str]) -> list[str]:
    return sorted(name for name in created if name.startswith("ratings_p"))


def test_months_are_made_ahead_by_one_process_at_a_time(engine: Engine) -> None:
    now = datetime(2031, 11, 15, tzinfo=UTC)
    barrier = threading.Barrier(4)

    def ensure(_: int) -> list[str]:
        with engine.connect() as connection:
            barrier.wait()
            return ensure_partitions(connection, now, ahead=3)

    with ThreadPoolExecutor(4) as pool:
        created = [name for names in pool.map(ensure, range(4)) for name in names]
    assert months(created) == ["ratings_p2031_11", "ratings_p2031_12", "ratings_p2032_01", "ratings_p2032_02"]
    with engine.connect() as connection:
        assert ensure_partitions(connection, now, ahead=3) == []
        names = {partition.name for partition in partitions(connection)}
    assert {"ratings_p2031_11", "ratings_p2032_02"} <= names


async def test_a_server_makes_the_coming_months_as_it_starts(url: str, engine: Engine) -> None:
    last = f"ratings_p{month_ago(utc_now(), -MONTHS_AHEAD):%Y_%m}"
    with engine.connect() as connection:
        connection.execute(text(f"DROP TABLE IF EXISTS {last}"))
    settings = Settings(embeddings="off", database_url=url, secret_key="test", periodic_jobs=True)
    async with AsyncTestClient(create_app(settings)):
        for _ in range(200):
            with engine.connect() as connection:
                if last in {partition.name for partition in partitions(connection)}:
                    return
            await asyncio.sleep(0.05)
    raise AssertionError(f"{last} was not made")


async def test_ratings_waiting_in_the_default_partition_move_into_their_month(
    url: str, engine: Engine, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    tenant = await make_tenant(session_maker)
    ahead = datetime(2035, 3, 10, tzinfo=UTC)
    async with unit_of_work(session_maker) as session:
        await add_ratings(
            session, [(tenant.project.id, RatingInput(rating_type="nps", value=9))] * 3, created_at=ahead
        )
    assert where_ratings_are(url) == {"ratings_default": 3}

    with engine.connect() as connection:
        assert "ratings_p2035_03" in ensure_partitions(connection, ahead, ahead=0)
    assert where_ratings_are(url) == {"ratings_p2035_03": 3}
    async with unit_of_work(session_maker) as session:
        await assert_counters_match_rows(session)


async def rate(
    session_maker: async_sessionmaker[AsyncSession], project: Project, moment: datetime, count: int
) -> None:
    inputs = [
        RatingInput(rating_type="helpful", value=1, path="/a"),
        RatingInput(rating_type="star", value=4, max_stars=5, version="2.0"),
        RatingInput(rating_type="helpful", value=0, custom_data={"reason": "other"}),
    ]
    async with unit_of_work(session_maker) as session:
        await add_ratings(session, [(project.id, inputs[n % 3]) for n in range(count)], created_at=moment)


def month_ago(now: datetime, months: int) -> datetime:
    index = now.year * 12 + now.month - 1 - months
    return datetime(index // 12, index % 12 + 1, 12, 8, tzinfo=UTC)


async def test_retention_drops_the_months_every_project_there_has_outlived(
    url: str, engine: Engine, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    now = utc_now()
    with engine.connect() as connection:
        ensure_partitions(connection, month_ago(now, 5), ahead=5)  # as if partitioned half a year ago
    tenant: Tenant = await make_tenant(session_maker)
    kept_forever = await add_project(session_maker, tenant, name="Kept forever")
    short = tenant.project
    async with unit_of_work(session_maker) as session:
        await session.execute(update(Project).where(Project.id == short.id).values(retention_days=40))
    await rate(session_maker, short, month_ago(now, 5), 30)  # its month: this project's alone
    await rate(session_maker, short, month_ago(now, 4), 20)  # shared with a project keeping everything
    await rate(session_maker, kept_forever, month_ago(now, 4), 7)
    await rate(session_maker, short, now - timedelta(minutes=5), 4)

    [removed] = await run_due_retention(session_maker, now=now)

    stored = where_ratings_are(url)
    names = {p.name for p in partitions(engine.connect())}
    five, four = (f"ratings_p{month_ago(now, n):%Y_%m}" for n in (5, 4))
    assert five not in names  # dropped whole
    assert stored[four] == 7  # the shared month stays; its expired ratings deleted one by one
    assert removed.ratings == 20
    async with unit_of_work(session_maker) as session:
        left = await session.scalar(
            select(func.count()).select_from(Rating).where(Rating.project_id == short.id)
        )
        assert left == 4
        await assert_counters_match_rows(session)
