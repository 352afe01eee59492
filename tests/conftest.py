"""Fixtures: every API test runs on SQLite and again on PostgreSQL, each on a freshly migrated database."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from advanced_alchemy.config.common import GenericSQLAlchemyConfig
from argon2 import PasswordHasher
from litestar import Litestar
from litestar.stores.registry import StoreRegistry
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.sessions import console_stores
from app.config import Settings
from app.db.config import build_db_config
from app.db.models import User
from app.main import create_app
from tests import databases
from tests.console_helpers import Console, add_user, another_browser, use_memory_stores
from tests.factories import Tenant, make_tenant
from tests.mail_server import served_inbox
from tests.services import require_postgres

__all__ = ["served_inbox"]  # a fixture: the worker's mail server, for the modules that send mail

DB_CONFIG_REGISTRIES = (
    "_SESSION_SCOPE_KEY_REGISTRY",
    "_ENGINE_APP_STATE_KEY_REGISTRY",
    "_SESSIONMAKER_APP_STATE_KEY_REGISTRY",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow go first: parallel workers (`make test`) take them before the many short
    ones, so that no worker starts a minutes-long test when the others are nearly done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True, scope="session")
def light_password_hashing() -> Iterator[None]:
    """argon2id at its lightest in the test process: the library's recommended cost (64 MiB, three
    passes, four lanes) is about a third of a CPU second per hash, paid by every user a test makes and
    every login. Hashes still carry their parameters and verify as in production; servers the tests
    start as subprocesses (browser, fault and process tests) hash at the production cost."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tenants.passwords._hasher", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
        yield


@pytest.fixture(autouse=True)
def forget_db_configs() -> Iterator[None]:
    """advanced-alchemy gives every database config a unique key, kept in class-level sets and found by
    recursion over the taken ones; after about a thousand apps in one process that recursion overflows.
    A test's configs die with it, so their keys are released when it ends."""
    before = {name: set(getattr(GenericSQLAlchemyConfig, name)) for name in DB_CONFIG_REGISTRIES}
    yield
    for name, keys in before.items():
        getattr(GenericSQLAlchemyConfig, name).intersection_update(keys)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return databases.sqlite_template(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture(scope="session")
def sqlite_urls(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The worker's SQLite database, last in the list: a new one is added when a test left the last one
    locked (a connection it never closed), so that one test's leak does not fail the next."""
    return [databases.sqlite_worker(sqlite_template, tmp_path_factory.mktemp("sqlite"))]


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    require_postgres()
    url = databases.postgres_create()
    yield url
    databases.postgres_drop(url)


def worker_sqlite(request: pytest.FixtureRequest) -> str:
    """The worker's SQLite database, emptied for the test: the same URL for every test of the worker
    (unless one left it locked), so applications built for it are reused (the app fixture)."""
    urls: list[str] = request.getfixturevalue("sqlite_urls")
    if not databases.sqlite_empty(urls[-1]):
        template: Path = request.getfixturevalue("sqlite_template")
        folder = request.getfixturevalue("tmp_path_factory").mktemp("sqlite")
        urls.append(databases.sqlite_worker(template, folder))
    return urls[-1]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """The worker's database of this kind, emptied for the test."""
    if request.param == "sqlite":
        return worker_sqlite(request)
    url: str = request.getfixturevalue("postgres_url")
    databases.postgres_empty(url)
    return url


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Insights off unless a test turns them on: the other tests need no model (tests/integration/
    test_insights*.py run it). The periodic jobs off too: each looks at once when the application starts,
    which every test does (about 50 ms of queries on PostgreSQL, racing the test's own); their
    tests run them or turn them on, and the servers the tests start as processes run them all."""
    return Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        embeddings="off",
        periodic_jobs=False,
    )


APPS: OrderedDict[Settings, Litestar] = OrderedDict()
"""Applications already built in this process, by their settings (the last few)."""


@pytest.fixture
def app(settings: Settings) -> Litestar:
    """The application for these settings, built once per worker: building one costs about half a CPU
    second (Litestar registers every route), which over a thousand tests would pay again. Each test
    still starts it anew (its own lifespan: Redis and database clients, caches and the ingest door are
    made at startup), on a database emptied for it, with new console stores."""
    app = APPS.pop(settings, None) or create_app(settings)
    APPS[settings] = app
    while len(APPS) > 8:
        APPS.popitem(last=False)
    app.stores = StoreRegistry(console_stores(settings))
    return app


@pytest.fixture
async def app_run(app: Litestar) -> AsyncIterator[AsyncTestClient[Litestar]]:
    """The test's one run of its application: Litestar's test client starts it on an event loop of its
    own. `client` is this run's client and `console` a browser on it (an application refuses a second
    run while one serves)."""
    async with AsyncTestClient(app=app) as run:
        yield run


@pytest.fixture
def client(app_run: AsyncTestClient[Litestar]) -> AsyncTestClient[Litestar]:
    return app_run


@pytest.fixture
async def session_maker(settings: Settings) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions for arranging data through the application's own services."""
    config = build_db_config(settings)
    yield config.create_session_maker()
    await config.get_engine().dispose()


@pytest.fixture
async def tenant(session_maker: async_sessionmaker[AsyncSession]) -> Tenant:
    return await make_tenant(session_maker, name="Org A")


@pytest.fixture
async def other_tenant(session_maker: async_sessionmaker[AsyncSession]) -> Tenant:
    return await make_tenant(session_maker, name="Org B")


@pytest.fixture
async def console(app: Litestar, app_run: AsyncTestClient[Litestar]) -> AsyncIterator[Console]:
    """A browser-like console client (cookies, CSRF token) with in-memory session stores."""
    use_memory_stores(app)
    async with another_browser(app_run) as browser:
        yield Console(browser)


@pytest.fixture
async def owner(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> User:
    return await add_user(session_maker, tenant.org_id, "owner@org-a.example", "owner")
