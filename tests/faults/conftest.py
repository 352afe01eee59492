"""The fault tests' own PostgreSQL and Redis (the machine's are never stopped), a fresh migrated
database per test, and a load of public submissions whose acknowledged ones are checked afterwards."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx
import psycopg
import pytest

from tests import databases
from tests.cluster import HEARKEN, ROOT, PrivatePostgres, PrivateRedis
from tests.services import services_required

ORIGIN = "https://site.example"
TEMPLATE = "hearken_template"
T = TypeVar("T")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """All fault tests run on one worker, one after another: they share this worker's PostgreSQL and
    Redis (one of each per worker would cost a cluster's start each), stop and freeze them, and time
    answers, which a second fault test beside them would slow."""
    for item in items:
        if "tests/faults/" in item.path.as_posix():
            item.add_marker(pytest.mark.xdist_group("faults"))


def _require_programs() -> None:
    missing = [name for name in ("haproxy", "redis-server", "runuser") if shutil.which(name) is None]
    if not missing:
        return
    message = f"fault tests need {', '.join(missing)} (apt-get install haproxy redis-server)"
    if services_required():
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def private_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivatePostgres]:
    _require_programs()
    # Not under pytest's own temporary folder: the postgres user cannot enter it.
    folder = Path(tempfile.mkdtemp(prefix="hearken-faults-postgres-"))
    server = PrivatePostgres(folder).init()
    with psycopg.connect(_libpq(server.url), autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {TEMPLATE}")
    template = _database(server, TEMPLATE)
    databases.migrate(template)  # every test's database is a copy of this one, tenant included
    server.tenant = make_tenant({**os.environ, "HEARKEN_DATABASE_URL": template})
    yield server
    server.stop("immediate")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedis]:
    _require_programs()
    server = PrivateRedis(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def postgres(private_postgres: PrivatePostgres) -> PrivatePostgres:
    """Running, whatever the test before did to it."""
    try:
        with psycopg.connect(_libpq(private_postgres.url), connect_timeout=2):
            pass
    except psycopg.OperationalError:
        private_postgres.start()
    return private_postgres


@pytest.fixture
def tenant(postgres: PrivatePostgres) -> Tenant:
    """The organization, project and token every test's database holds."""
    made: Tenant = postgres.tenant  # type: ignore[attr-defined]
    return made


@pytest.fixture
def redis_server(private_redis: PrivateRedis) -> PrivateRedis:
    if private_redis.process is None:
        private_redis.start()
    return private_redis


@pytest.fixture
def database_url(postgres: PrivatePostgres) -> str:
    """A database of its own, copied from the migrated one."""
    name = f"faults_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(postgres.url), autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    return _database(postgres, name)


def _database(server: PrivatePostgres, name: str) -> str:
    return server.url.rsplit("/", 1)[0] + f"/{name}"


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def stored_marks(database_url: str) -> set[str]:
    with psycopg.connect(_libpq(database_url)) as connection:
        rows = connection.execute("SELECT submitted_by FROM ratings WHERE submitted_by IS NOT NULL")
        return {row[0] for row in rows}


@dataclass
class Answer:
    mark: str
    status: int | None
    """None: no answer at all (the connection broke)."""
    seconds: float
    error: str = ""
    at: float = 0.0


@dataclass
class Load:
    """Threads posting helpful ratings to `url`, each marked (submitted_by) so that every acknowledged
    one can be looked for in the database afterwards."""

    url: str
    project_key: str
    threads: int = 6
    spread_clients: bool = False
    """Each request from a client address of its own (X-Forwarded-For; the nodes trust HAProxy), so that
    no client budget stops the load while the test spends a visitor's."""
    answers: list[Answer] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _workers: list[threading.Thread] = field(default_factory=list)
    _serial: Iterator[int] = field(default_factory=itertools.count)

    def __enter__(self) -> Load:
        for _ in range(self.threads):
            worker = threading.Thread(target=self._run, daemon=True)
            worker.start()
            self._workers.append(worker)
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for worker in self._workers:
            worker.join(timeout=30)

    def _run(self) -> None:
        with httpx.Client(timeout=30) as client:
            while not self._stop.is_set():
                serial = next(self._serial)
                mark = f"m{serial}"
                body = {"project_key": self.project_key, "value": True, "path": "/p", "submitted_by": mark}
                headers = {"Origin": ORIGIN}
                if self.spread_clients:
                    headers["X-Forwarded-For"] = f"10.{serial >> 16 & 255}.{serial >> 8 & 255}.{serial & 255}"
                started = time.monotonic()
                try:
                    response = client.post(self.url + "/api/v1/rating/submit", json=body, headers=headers)
                    error = response.json().get("error", "") if response.status_code >= 400 else ""
                    status: int | None = response.status_code
                except (httpx.HTTPError, ValueError) as failure:
                    status, error = None, type(failure).__name__
                self.answers.append(Answer(mark, status, time.monotonic() - started, error, time.monotonic()))

    def acknowledged(self) -> set[str]:
        return {answer.mark for answer in self.answers if answer.status == 204}

    def since(self, moment: float) -> list[Answer]:
        return [answer for answer in self.answers if answer.at >= moment]

    def wait_for_answers(self, count: int, seconds: float = 20) -> None:
        """Until `count` more answers came, whatever they were."""
        target = len(self.answers) + count
        deadline = time.monotonic() + seconds
        while len(self.answers) < target:
            if time.monotonic() > deadline:
                raise AssertionError(f"fewer than {count} answers in {seconds:.0f} s")
            time.sleep(0.02)


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """What `call` returned, and how many seconds it took."""
    started = time.monotonic()
    return call(), time.monotonic() - started


@dataclass
class Tenant:
    org_id: str
    project_key: str
    token: str
    token_id: str


def make_tenant(env: dict[str, str]) -> Tenant:
    """An organization, its project (allowing ORIGIN) and a write token, made with the operator commands."""
    org = hearken_cli(env, "orgs", "create", "--name", "Faults", "--owner-email", "owner@faults.example",
               "--owner-password", "a long enough password")  # fmt: skip
    project = hearken_cli(env, "projects", "create", "--org", org["id"], "--name", "Docs", "--origin", ORIGIN)
    token = hearken_cli(env, "tokens", "create", "--org", org["id"], "--label", "faults")
    return Tenant(org_id=org["id"], project_key=project["key"], token=token["token"], token_id=token["id"])


def hearken_cli(env: dict[str, str], *args: str) -> dict[str, str]:
    done = subprocess.run([HEARKEN, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    answer: dict[str, str] = json.loads(done.stdout)
    return answer
