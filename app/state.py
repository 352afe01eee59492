"""The long-lived objects of one worker process, kept in the application state.

Two lifetimes: the settings, the database engine and sessions and the signal that wakes the outbox
dispatcher are made with the application; the Redis client, the read replicas, the shared cache
generation, the token cache, the ingest door, the survey intake and what single sign-on providers
published are made when it starts serving and closed when it stops (`serving_state`), so that an
application that stopped can serve again with nothing of the last run left in them. One run at a time: a
second start while one serves is refused (`serving_state`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from advanced_alchemy.extensions.litestar import SQLAlchemyAsyncConfig
from litestar import Litestar
from litestar.datastructures import State
from litestar.types import Scope
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.cache_generation import cache_generation
from app.db.config import POOL_TIMEOUT_SECONDS, POSTGRES_CONNECT_ARGS
from app.db.read_routing import ReadRouting, read_routing
from app.db.redis_connection import RedisOutage, connect_redis
from app.db.replicas import replica_set
from app.ingest import Ingest, build_ingest
from app.insights.engine import configure as configure_insights
from app.integrations.openid_connect import OpenIdClient
from app.live import LiveBus, live_bus, running
from app.live.bus import streams_end_on_stop
from app.live.streams import OpenStreams, StreamLimits
from app.outbox.queue import OUTBOX_SIGNAL
from app.outbox.signal import OutboxSignal
from app.surveys.active_list import ActiveSurveyLists
from app.surveys.intake import SurveyIntake, SurveySubmissions, survey_submissions
from app.surveys.unlocked_batches import unlocked_batches
from tenants.token_directory import TokenDirectory

SERVING = "serving_run"
"""State key present while a run of the application serves."""


def build_state(settings: Settings, db_config: SQLAlchemyAsyncConfig) -> State:
    outbox_signal = OutboxSignal()
    # Before any session exists: a commit of new outbox work in this process wakes its dispatcher.
    db_config.session_config.info[OUTBOX_SIGNAL] = outbox_signal
    return State(
        {
            "settings": settings,
            "database_engine": db_config.get_engine(),
            "session_maker": db_config.create_session_maker(),
            "outbox_signal": outbox_signal,
        }
    )


@asynccontextmanager
async def serving_state(app: Litestar) -> AsyncIterator[None]:
    """The clients and caches of one run of the application, first in and last out of its lifespan;
    whatever the run added to the state (here, or lazily, such as the login throttle's counters) goes
    with it.

    A second run while one serves is refused: it would replace the first run's clients in the state, close
    them and dispose the engine when it stops while the first still serves, and share the engine's pool
    between two event loops (an asyncio pool's waiters must all be of one loop: a request of the other
    failed with "bound to a different event loop"). Litestar's test client starts a run per client, each
    on an event loop of its own."""
    if SERVING in app.state:
        raise RuntimeError("this application is serving already: stop that run before starting another")
    settings: Settings = app.state.settings
    engine: AsyncEngine = app.state.database_engine
    lasting = set(app.state.keys())
    redis = connect_redis(settings.redis_url) if settings.redis_url else None
    redis_outage = RedisOutage()
    generation = cache_generation(settings, redis, redis_outage)
    ingest = build_ingest(settings, app.state.session_maker, generation, redis_outage)
    survey_intake = SurveyIntake(app.state.session_maker, unlocked_batches(settings))
    submissions = survey_submissions(ingest, survey_intake)
    routing = _read_routing(settings, engine, redis, redis_outage)
    bus = live_bus(settings, engine)
    await bus.start()
    app.state.update(
        {
            SERVING: True,
            "redis": redis,
            "redis_outage": redis_outage,
            "read_routing": routing,
            "token_directory": TokenDirectory(app.state.session_maker, generation),
            "ingest": ingest,
            "survey_submissions": submissions,
            "insights": configure_insights(settings),
            "openid_client": OpenIdClient(),
            "active_surveys": ActiveSurveyLists(app.state.session_maker),
            "live_bus": bus,
            "open_streams": OpenStreams(
                StreamLimits(
                    settings.live_streams_per_person,
                    settings.live_streams_per_project,
                    settings.live_streams_per_process,
                )
            ),
        }
    )
    try:
        with running(bus), streams_end_on_stop(bus):
            yield
    finally:
        await bus.close()
        await submissions.close()
        await survey_intake.close()
        await ingest.close()
        if redis is not None:
            await redis.aclose()
        if routing is not None:
            await routing.replicas.close()
        # Last, once nothing can use it: advanced-alchemy's lifespan disposes the engine only when the
        # config's state key is the default one, and a process that made another config first (migrations,
        # a second app) gets a suffixed key. Its pooled connections then stayed open after shutdown.
        await engine.dispose()
        for key in set(app.state.keys()) - lasting:  # what this run made, here or lazily elsewhere
            del app.state[key]


def _read_routing(
    settings: Settings, engine: AsyncEngine, redis: Redis | None, redis_outage: RedisOutage
) -> ReadRouting | None:
    if not settings.database_replica_urls:
        return None
    replicas = replica_set(
        engine,
        settings.database_replica_urls,
        settings.database_replica_max_lag,
        POSTGRES_CONNECT_ARGS,
        POOL_TIMEOUT_SECONDS,
    )
    return read_routing(replicas, redis, redis_outage, settings.redis_prefix)


def ingest_of(scope: Scope) -> Ingest:
    """The worker's Ingest, for the public endpoints and their middleware. Read from the state rather than
    injected: resolving a dependency costs Litestar time on every request of the hottest path."""
    ingest: Ingest = scope["litestar_app"].state.ingest
    return ingest


def active_surveys_of(scope: Scope) -> ActiveSurveyLists:
    """The worker's cache of the projects' active survey lists."""
    lists: ActiveSurveyLists = scope["litestar_app"].state.active_surveys
    return lists


def live_bus_of(scope: Scope) -> LiveBus:
    """The worker's live bus (conversations publish on it; their streams subscribe)."""
    bus: LiveBus = scope["litestar_app"].state.live_bus
    return bus


def open_streams_of(scope: Scope) -> OpenStreams:
    streams: OpenStreams = scope["litestar_app"].state.open_streams
    return streams


def survey_submissions_of(scope: Scope) -> SurveySubmissions:
    """The worker's intake of the widget's survey responses (read from the state, as ingest_of)."""
    submissions: SurveySubmissions = scope["litestar_app"].state.survey_submissions
    return submissions
