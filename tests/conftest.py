"""Fixtures: every API test runs on SQLite and again on PostgreSQL, each on a freshly migrated database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from advanced_alchemy.config.common import GenericSQLAlchemyConfig
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.main import create_app
from tenants.models import User
from tests import databases
from tests.console_helpers import Console, add_user, use_memory_stores
from tests.factories import Tenant, make_tenant
from tests.services import require_postgres

DB_CONFIG_REGISTRIES = (
    "_SESSION_SCOPE_KEY_REGISTRY",
    "_ENGINE_APP_STATE_KEY_REGISTRY",
    "_SESSIONMAKER_APP_STATE_KEY_REGISTRY",
)


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
def postgres_url() -> Iterator[str]:
    require_postgres()
    url = databases.postgres_create()
    yield url
    databases.postgres_drop(url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    if request.param == "sqlite":
        return databases.sqlite_copy(sqlite_template, tmp_path)
    url: str = request.getfixturevalue("postgres_url")
    databases.postgres_truncate(url)
    return url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, secret_key="test-secret-key-for-the-suite")


@pytest.fixture
def app(settings: Settings) -> Litestar:
    return create_app(settings)


@pytest.fixture
async def client(app: Litestar) -> AsyncIterator[AsyncTestClient[Litestar]]:
    async with AsyncTestClient(app=app) as test_client:
        yield test_client


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
async def console(app: Litestar) -> AsyncIterator[Console]:
    """A browser-like console client (cookies, CSRF token) with in-memory session stores."""
    use_memory_stores(app)
    async with AsyncTestClient(app=app) as test_client:
        yield Console(test_client)


@pytest.fixture
async def owner(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> User:
    return await add_user(session_maker, tenant.org_id, "owner@org-a.example", "owner")
