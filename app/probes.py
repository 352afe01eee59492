"""/healthz, /readyz and /metrics: what a load balancer, an orchestrator and Prometheus ask a process.

/healthz says the process serves (it touches nothing else). /readyz checks the database and Redis; the
database is required (503 when it does not answer), Redis is not: without it the process still serves,
with its own rate limits, and /readyz says so. /metrics is open only to the networks in
HEARKEN_METRICS_ALLOW (the client as the trusted proxies name it); anyone else gets 404.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from litestar import Request, Response, Router, get
from litestar.exceptions import NotFoundException
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.redis_connection import RedisOutage
from app.ingest import client_address
from app.operations.metrics import POOL_IN_USE, POOL_SIZE, REDIS_SHARED, REGISTRY

CHECK_SECONDS = 3.0
"""A dependency that has not answered a readiness check by then is reported as unavailable."""


@get("/healthz", summary="The process serves", include_in_schema=False, sync_to_thread=False)
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@get("/readyz", summary="The database and Redis answer", include_in_schema=False)
async def readyz(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    state = request.app.state
    engine: AsyncEngine = state.database_engine
    redis: Redis | None = state.redis
    database = "ok" if await _answers(_select_one(engine)) else "unavailable"
    checks = {"database": database, "redis": "not_configured"}
    body: dict[str, Any] = {"status": "ready", "checks": checks}
    if redis is not None:
        outage: RedisOutage = state.redis_outage
        if await _answers(redis.ping()):
            checks["redis"] = "ok"
            outage.answered()
        else:
            checks["redis"] = "unavailable"
            body["status"] = "degraded"
            body["details"] = "Redis does not answer: rate limits are counted per process"
    insights, why = state.insights.embedder.status()
    checks["insights"] = insights
    if insights == "degraded":
        body["status"] = "degraded"
        body["details"] = "; ".join(filter(None, [body.get("details"), f"insights: {why}"]))
    if database != "ok":
        body["status"] = "unavailable"
        body["details"] = "the database does not answer"
        return Response(body, status_code=503, headers={"Retry-After": "5"})
    return Response(body)


@get("/metrics", summary="Prometheus metrics", include_in_schema=False)
async def metrics(request: Request[Any, Any, Any]) -> Response[bytes]:
    settings: Settings = request.app.state.settings
    client = client_address(request.scope, settings.trusted_proxies)
    if not settings.metrics_allowed(client):
        raise NotFoundException()
    engine: AsyncEngine = request.app.state.database_engine
    pool: Any = engine.sync_engine.pool
    if hasattr(pool, "checkedout"):
        POOL_IN_USE.set(pool.checkedout())
        POOL_SIZE.set(pool.checkedin() + pool.checkedout())
    outage: RedisOutage = request.app.state.redis_outage
    REDIS_SHARED.set(0 if request.app.state.redis is None or outage.down else 1)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


async def _select_one(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


async def _answers(check: Awaitable[Any]) -> bool:
    """Whether the check succeeds in time. Not awaited past the deadline: a frozen database would keep
    a cancelled query for seconds more, and the probe must answer."""
    task = asyncio.ensure_future(check)
    done, _ = await asyncio.wait((task,), timeout=CHECK_SECONDS)
    if not done:
        task.cancel()
        _ABANDONED.add(task)
        task.add_done_callback(_forget)
        return False
    return task.exception() is None


_ABANDONED: set[asyncio.Future[Any]] = set()


def _forget(task: asyncio.Future[Any]) -> None:
    _ABANDONED.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: the failure was reported as "unavailable" already


operations_router = Router(path="/", route_handlers=[healthz, readyz, metrics])
