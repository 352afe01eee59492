"""The long-lived objects of one worker process, kept in the application state: the settings, the
database engine and sessions, the shared cache generation, the token cache, the ingest door and the
signal that wakes the outbox dispatcher."""

from __future__ import annotations

from advanced_alchemy.extensions.litestar import SQLAlchemyAsyncConfig
from litestar import Litestar
from litestar.datastructures import State
from litestar.types import Scope
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.cache_generation import cache_generation
from app.db.redis_connection import RedisOutage, connect_redis
from app.ingest import Ingest, build_ingest
from app.outbox.queue import OUTBOX_SIGNAL
from tenants.token_directory import TokenDirectory


def build_state(settings: Settings, db_config: SQLAlchemyAsyncConfig) -> State:
    session_maker = db_config.create_session_maker()
    redis = connect_redis(settings.redis_url) if settings.redis_url else None
    redis_outage = RedisOutage()
    generation = cache_generation(settings, redis, redis_outage)
    return State(
        {
            "settings": settings,
            "database_engine": db_config.get_engine(),
            "session_maker": session_maker,
            "outbox_signal": db_config.session_config.info[OUTBOX_SIGNAL],
            "redis": redis,
            "redis_outage": redis_outage,
            "token_directory": TokenDirectory(session_maker, generation),
            "ingest": build_ingest(settings, session_maker, generation, redis_outage),
        }
    )


def ingest_of(scope: Scope) -> Ingest:
    """The worker's Ingest, for the public endpoints and their middleware. Read from the state rather than
    injected: resolving a dependency costs Litestar time on every request of the hottest path."""
    ingest: Ingest = scope["litestar_app"].state.ingest
    return ingest


async def close_state(app: Litestar) -> None:
    ingest: Ingest = app.state.ingest
    await ingest.close()
    redis: Redis | None = app.state.redis
    if redis is not None:
        await redis.aclose()
    # Last, once nothing can use it: advanced-alchemy's lifespan disposes the engine only when the
    # config's state key is the default one, and a process that made another config first (migrations,
    # a second app) gets a suffixed key. Its pooled connections then stayed open after shutdown.
    engine: AsyncEngine = app.state.database_engine
    await engine.dispose()
