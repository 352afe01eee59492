"""The advanced-alchemy configuration: one async engine for SQLite or PostgreSQL, Alembic migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advanced_alchemy.extensions.litestar import (
    AlembicAsyncConfig,
    AsyncSessionConfig,
    EngineConfig,
    SQLAlchemyAsyncConfig,
)
from advanced_alchemy.extensions.litestar._utils import get_aa_scope_state
from litestar.config.app import AppConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.plugins import InitPluginProtocol
from litestar.types import Scope
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db import audit_trail  # noqa: F401  (registers the audit log's flush listener)
from app.db.cache_generation import cache_generation
from app.db.read_routing import route_session
from app.db.tracked_session import CACHE_GENERATION, TrackedSession
from app.db.transactions import commit_before_send

MIGRATIONS = Path(__file__).parent / "migrations"
CONNECT_TIMEOUT_SECONDS = 3
"""A PostgreSQL that does not accept a connection within this is unavailable (503)."""
POOL_TIMEOUT_SECONDS = 8
"""How long a request waits for a pooled connection before it is answered 503."""
STATEMENT_TIMEOUT_MS = 8000
"""PostgreSQL cancels a statement running longer (migrations lift it); the request gets 503."""
POSTGRES_CONNECT_ARGS = {
    "connect_timeout": CONNECT_TIMEOUT_SECONDS,
    "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
}
"""psycopg connection settings of every PostgreSQL connection the service opens."""


class RoutedSessions(InitPluginProtocol):
    """Provides the request's session (`db_session`) in place of advanced-alchemy's provider (listed
    after its plugin): the one place where a request's reads are sent to a replica
    (`app/db/read_routing.py`); everything else reads and writes the primary."""

    def __init__(self, config: SQLAlchemyAsyncConfig) -> None:
        self.config = config

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        config = self.config

        async def provide_session(state: State, scope: Scope) -> AsyncSession:
            fresh = get_aa_scope_state(scope, config.session_scope_key) is None
            session = config.provide_session(state, scope)
            if fresh:
                await route_session(state, scope, session)
            return session

        app_config.dependencies[config.session_dependency_key] = Provide(provide_session)
        return app_config


def build_db_config(settings: Settings) -> SQLAlchemyAsyncConfig:
    """Engine, session and migration settings for the configured database. SQL parameters are kept out
    of error messages (and so out of logs): they hold visitors' text and addresses."""
    if settings.is_sqlite:
        _ensure_sqlite_folder(settings.database_url)
        engine = EngineConfig(connect_args={"timeout": 30}, hide_parameters=True)
    else:
        # No pre-ping: it would add a round trip to every checkout, the group commit's included. A
        # connection lost to a database restart fails one transaction (503) and the pool is refreshed.
        engine = EngineConfig(
            pool_size=10,
            max_overflow=10,
            pool_timeout=POOL_TIMEOUT_SECONDS,
            connect_args=POSTGRES_CONNECT_ARGS,
            hide_parameters=True,
        )
    config = SQLAlchemyAsyncConfig(
        connection_string=settings.database_url,
        engine_config=engine,
        session_config=AsyncSessionConfig(
            expire_on_commit=False,
            class_=TrackedSession,
            info={CACHE_GENERATION: cache_generation(settings)},
        ),
        session_dependency_key="db_session",
        alembic_config=AlembicAsyncConfig(
            script_location=str(MIGRATIONS),
            version_table_name="alembic_version",
            render_as_batch=settings.is_sqlite,
        ),
        create_all=False,
    )
    config.before_send_handler = commit_before_send(config.session_scope_key)
    if settings.is_sqlite:
        tune_sqlite(config.get_engine().sync_engine)
    return config


def _ensure_sqlite_folder(url: str) -> None:
    path = url.split(":///", 1)[-1].split("?", 1)[0]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


def tune_sqlite(engine: Engine) -> None:
    """WAL lets readers run beside the writer; foreign keys are off in SQLite unless asked for."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()
