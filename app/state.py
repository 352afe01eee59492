"""The long-lived objects of one worker process, kept in the application state: the caches of project
keys and token digests, the shared cache generation, the public endpoints' gate and the ratings'
intake."""

from __future__ import annotations

from advanced_alchemy.extensions.litestar import SQLAlchemyAsyncConfig
from litestar import Litestar
from litestar.datastructures import State
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.cache_generation import cache_generation, generation_key
from app.public.gate import PublicGate
from app.public.project_directory import ProjectDirectory
from app.public.rate_limit import CounterStore, MemoryCounters, RateLimiter, RedisCounters
from app.public.rating_intake import RatingIntake
from app.services.group_commit import RatingGroupCommit
from app.services.rating_batches import rating_batches
from tenants.token_directory import TokenDirectory


def build_state(settings: Settings, db_config: SQLAlchemyAsyncConfig) -> State:
    session_maker = db_config.create_session_maker()
    redis = Redis.from_url(settings.redis_url) if settings.redis_url else None
    generation = cache_generation(settings, redis)
    counters: CounterStore = (
        # A connection of its own: the budget checks run one batch at a time, so they never wait for
        # one, and skip the pool's bookkeeping on every public request.
        RedisCounters(
            Redis.from_url(settings.redis_url, single_connection_client=True),
            settings.redis_prefix,
            generation_key(settings),
        )
        if settings.redis_url
        else MemoryCounters(generation)
    )
    limiter = RateLimiter(
        counters, settings.secret_key, settings.rate_limit_client, settings.rate_limit_project
    )
    projects = ProjectDirectory(session_maker)
    gate = PublicGate(settings, projects, limiter)
    return State(
        {
            "settings": settings,
            "database_engine": db_config.get_engine(),
            "session_maker": session_maker,
            "redis": redis,
            "cache_generation": generation,
            "token_directory": TokenDirectory(session_maker, generation),
            "project_directory": projects,
            "budget_counters": counters,
            "public_gate": gate,
            "rating_intake": RatingIntake(gate, RatingGroupCommit(rating_batches(settings))),
        }
    )


async def close_state(app: Litestar) -> None:
    intake: RatingIntake = app.state.rating_intake
    await intake.close()
    if isinstance(counters := app.state.budget_counters, RedisCounters):
        await counters.close()
    redis: Redis | None = app.state.redis
    if redis is not None:
        await redis.aclose()
    # Last, once nothing can use it: advanced-alchemy's lifespan disposes the engine only when the
    # config's state key is the default one, and a process that made another config first (migrations,
    # a second app) gets a suffixed key. Its pooled connections then stayed open after shutdown.
    engine: AsyncEngine = app.state.database_engine
    await engine.dispose()
