"""Read replicas against a real streaming standby: a PostgreSQL primary of the test's own, and a standby
made from it by `pg_basebackup -R` on another port. The standby's replay is paused to make it stale on
purpose: what a reader then sees tells where the read came from."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.transactions import unit_of_work
from app.main import create_app
from app.operations.metrics import REGISTRY
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope
from tests import databases
from tests.cluster import PrivatePostgres, _as_postgres, _postgres_bin, wait_for
from tests.console_helpers import Console, add_user, use_memory_stores
from tests.factories import Tenant, make_tenant
from tests.services import services_required


@dataclass
class StreamingPair:
    primary: PrivatePostgres
    standby: PrivatePostgres

    @property
    def primary_url(self) -> str:
        return self.primary.url.rsplit("/", 1)[0] + "/hearken"

    @property
    def standby_url(self) -> str:
        return self.standby.url.rsplit("/", 1)[0] + "/hearken"

    def sql(self, server: PrivatePostgres, statement: str) -> list[tuple[Any, ...]]:
        libpq = server.url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/hearken"
        with psycopg.connect(libpq, autocommit=True, connect_timeout=3) as connection:
            cursor = connection.execute(statement)  # type: ignore[call-overload]
            return cursor.fetchall() if cursor.description else []

    def replayed(self) -> bool:
        """The standby has replayed everything the primary has written so far."""
        (position,) = self.sql(self.primary, "SELECT pg_current_wal_lsn()::text")[0]
        return bool(self.sql(self.standby, f"SELECT pg_last_wal_replay_lsn() >= '{position}'")[0][0])

    def pause_replay(self) -> None:
        wait_for(self.replayed, 10, "the standby catches up")
        self.sql(self.standby, "SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        self.sql(self.standby, "SELECT pg_wal_replay_resume()")
        wait_for(self.replayed, 10, "the standby catches up")

    def app_connections(self) -> int:
        """The application's read connections on the standby (its lag checks are named otherwise)."""
        return int(
            self.sql(
                self.standby, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hearken'"
            )[0][0]
        )


@pytest.fixture(scope="module")
def pair() -> Iterator[StreamingPair]:
    missing = [name for name in ("runuser",) if shutil.which(name) is None]
    if missing:
        (pytest.fail if services_required() else pytest.skip)(f"needs {', '.join(missing)}")
    folder = Path(tempfile.mkdtemp(prefix="hearken-replicas-"))  # the postgres user must enter it
    shutil.chown(folder, "postgres", "postgres")
    primary = PrivatePostgres(folder / "primary").init()
    standby = PrivatePostgres(folder / "standby")
    try:
        with psycopg.connect(primary.url.replace("+psycopg", ""), autocommit=True) as connection:
            connection.execute("CREATE DATABASE hearken")
        made = StreamingPair(primary, standby)
        databases.migrate(made.primary_url)
        standby.folder.mkdir()
        shutil.chown(standby.folder, "postgres", "postgres")
        subprocess.run(
            _as_postgres(str(_postgres_bin() / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port),
                         "-U", "postgres", "-D", str(standby.folder / "data"), "-R", "-X", "stream",
                         "-c", "fast"),
            check=True, capture_output=True,
        )  # fmt: skip
        standby.start()
        yield made
    finally:
        standby.stop("immediate")
        primary.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def tenant(pair: StreamingPair) -> Tenant:
    async def arrange() -> Tenant:
        config = build_db_config(Settings(database_url=pair.primary_url, secret_key="test"))
        try:
            return await make_tenant(config.create_session_maker(), name="Replicated")
        finally:
            await config.get_engine().dispose()

    return asyncio.run(arrange())


@asynccontextmanager
async def serving(pair: StreamingPair, max_lag: float) -> AsyncIterator[AsyncTestClient[Litestar]]:
    settings = Settings(
        database_url=pair.primary_url,
        database_replica_urls=(pair.standby_url,),
        database_replica_max_lag=max_lag,
        secret_key="test-secret-key-for-the-suite",
        embeddings="off",
    )
    app = create_app(settings)
    use_memory_stores(app)
    async with AsyncTestClient(app=app) as client:
        [replica] = app.state.read_routing.replicas.replicas
        deadline = time.monotonic() + 60
        while not replica.usable:  # a check has found it well
            assert time.monotonic() < deadline, "the replica never came to serve reads"
            await asyncio.sleep(0.05)
        yield client


@pytest.fixture(autouse=True)
def patient_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test here is about a check that times out, and on a test machine busy with other workers the
    primary has taken more than the production 2 s to answer one: the replica was then left out and a
    read the test expected from it went to the primary."""
    monkeypatch.setattr("app.db.replicas.CHECK_TIMEOUT_SECONDS", 30.0)


@asynccontextmanager
async def primary_sessions(pair: StreamingPair) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    config = build_db_config(Settings(database_url=pair.primary_url, secret_key="test"))
    try:
        yield config.create_session_maker()
    finally:
        await config.get_engine().dispose()


async def another_write_token(pair: StreamingPair, tenant: Tenant) -> dict[str, str]:
    async with primary_sessions(pair) as maker, unit_of_work(maker) as session:
        issued = await AccessTokens(session, operator_scope(tenant.org_id)).create(label="w2", scope="write")
    return {"X-API-Key": issued.token}


def replica_metric(pair: StreamingPair, name: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"replica": f"127.0.0.1:{pair.standby.port}"})


def messages(answer: Any) -> set[str]:
    return {item["message"] for item in answer.json()["feedback"]}


async def test_reads_come_from_the_replica_and_a_writer_reads_its_own_writes(
    pair: StreamingPair, tenant: Tenant
) -> None:
    feedback = f"/api/v1/projects/{tenant.project_id}/feedback"
    second_writer = await another_write_token(pair, tenant)
    async with serving(pair, max_lag=60) as client:
        pair.pause_replay()
        try:
            created = await client.post(
                feedback, json={"message": "only on the primary"}, headers=tenant.headers
            )
            assert created.status_code == 201

            # Another caller's list and export come from the paused replica: the item is not there yet.
            assert "only on the primary" not in messages(
                await client.get(feedback, headers=tenant.read_headers)
            )
            export = await client.get(feedback + "/export?format=ndjson", headers=tenant.read_headers)
            assert export.status_code == 200 and "only on the primary" not in export.text
            assert pair.app_connections() > 0

            # The writer reads its own write, from the primary.
            assert "only on the primary" in messages(await client.get(feedback, headers=tenant.headers))

            # A request that writes reads the primary: a caller who never wrote before finds the item.
            changed = await client.patch(
                f"{feedback}/{created.json()['id']}", json={"status": "Active"}, headers=second_writer
            )
            assert changed.status_code == 200
        finally:
            pair.resume_replay()
        assert "only on the primary" in messages(await client.get(feedback, headers=tenant.read_headers))


async def test_a_replica_lagging_past_the_bound_is_left_out(pair: StreamingPair, tenant: Tenant) -> None:
    feedback = f"/api/v1/projects/{tenant.project_id}/feedback"
    async with serving(pair, max_lag=1) as client:
        pair.pause_replay()
        try:
            assert (
                await client.post(feedback, json={"message": "lagging"}, headers=tenant.headers)
            ).status_code
            seen_at = time.monotonic()
            while "lagging" not in messages(await client.get(feedback, headers=tenant.read_headers)):
                assert time.monotonic() - seen_at < 5, "reads never went back to the primary"
                await asyncio.sleep(0.1)
        finally:
            pair.resume_replay()


async def test_a_stopped_replica_sends_reads_to_the_primary_without_errors(
    pair: StreamingPair, tenant: Tenant
) -> None:
    stats = f"/api/v1/projects/{tenant.project_id}/ratings/stats/typed?type=star"
    feedback = f"/api/v1/projects/{tenant.project_id}/feedback"
    async with serving(pair, max_lag=60) as client:
        assert (await client.get(feedback, headers=tenant.read_headers)).status_code == 200
        assert pair.app_connections() > 0  # the list was read on the standby
        assert replica_metric(pair, "hearken_db_replica_serving") == 1
        pair.standby.stop("fast")
        try:
            statuses = [
                (await client.get(path, headers=tenant.read_headers)).status_code
                for _ in range(10)
                for path in (feedback, stats)
            ]
        finally:
            pair.standby.start()
    assert statuses == [200] * 20


async def test_a_console_member_sees_their_change_after_the_redirect_and_others_read_the_replica(
    pair: StreamingPair, tenant: Tenant
) -> None:
    async with primary_sessions(pair) as maker:
        await add_user(maker, tenant.org_id, "writer@replicated.example", "member")
        await add_user(maker, tenant.org_id, "reader@replicated.example", "member")
    inbox = f"/projects/{tenant.project_id}/feedback"
    async with serving(pair, max_lag=60) as client:
        console = Console(client)
        pair.pause_replay()
        try:
            await console.login("writer@replicated.example")
            posted = await console.post(inbox + "/new", {"message": "typed in the console", "type": "Bug"})
            assert posted.status_code == 200  # followed the redirect to the new item
            assert "typed in the console" in (await console.get(inbox)).text

            client.cookies.clear()
            await console.login("reader@replicated.example")
            assert "typed in the console" not in (await console.get(inbox)).text
        finally:
            pair.resume_replay()
        assert "typed in the console" in (await console.get(inbox)).text
