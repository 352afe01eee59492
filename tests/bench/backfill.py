"""Rating submits while a backfill embeds: the model runs off the event loop on its own thread with
its threads capped, so the public submit path keeps its throughput while older items are embedded.

One server (PostgreSQL and Redis, one worker, insights on with the local model). Rating submit
throughput is measured with nothing to embed, then BACKLOG feedback items are stored without vectors
and queued as `hearken insights backfill` queues them, and throughput is measured again while the
server embeds them. A round run during the backfill counts only if embedding jobs were still pending
when it ended.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from uuid import UUID

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, JobStatus, OutboxJob
from app.db.transactions import unit_of_work
from app.insights.engine import configure
from app.insights.jobs import EMBED_JOB, queue_backfill
from app.timestamps import utc_now
from tests import databases
from tests.bench import seed
from tests.bench.load import wrk
from tests.bench.servers import start
from tests.insights.labelled import messages

BACKLOG = 3000
CONNECTIONS = 32


async def _store_backlog(session_maker: async_sessionmaker[AsyncSession], project_id: UUID) -> None:
    """BACKLOG items of the labelled set's messages, stored as an import would: no vectors yet."""
    texts = [message.text for message in messages()]
    now = utc_now()
    rows = [
        {
            "id": uuid7(), "project_id": project_id, "message": texts[n % len(texts)], "archived": False,
            "status": FeedbackStatus.NEW.value, "type": "Other", "source": FeedbackSource.WIDGET.value,
            "created_at": now - timedelta(seconds=n), "updated_at": now - timedelta(seconds=n),
        }
        for n in range(BACKLOG)
    ]  # fmt: skip
    async with unit_of_work(session_maker) as session:
        await session.execute(insert(FeedbackItem), rows)


async def _queue_backfill(session_maker: async_sessionmaker[AsyncSession]) -> int:
    queued = 0
    while True:
        async with unit_of_work(session_maker) as session:
            added = await queue_backfill(session)
        queued += added
        if not added:
            return queued


async def _embedding_jobs_left(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with session_maker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(OutboxJob)
            .where(OutboxJob.kind == EMBED_JOB, OutboxJob.status == JobStatus.PENDING.value)
        )
    return int(count or 0)


def backfill_part(
    record: Callable[..., None],
    app_env: Callable[[str, bool], dict[str, str]],
    rating_script: Callable[[str], str],
    rounds: int,
    seconds: int,
) -> dict[str, Any]:
    print(f"Rating submits while a backfill of {BACKLOG:,} items embeds (PostgreSQL, 1 worker)", flush=True)
    url = databases.postgres_create()
    settings = Settings(database_url=url, secret_key="bench", embeddings="local")
    configure(settings)  # queue_backfill asks which embedder the server runs; no model is loaded here
    config = build_db_config(settings)
    session_maker = config.create_session_maker()
    try:
        _, (project, *_) = asyncio.run(seed.tenant(session_maker))
        server = start(
            "app.main:create_app", workers=1, env={**app_env(url, True), "HEARKEN_EMBEDDINGS": "local"}
        )
        try:
            target = server.url + "/api/v1/rating/submit"
            script = rating_script(str(project.key))
            wrk(target, script=script, connections=CONNECTIONS, seconds=2)  # warm
            idle = [
                wrk(target, script=script, connections=CONNECTIONS, seconds=seconds) for _ in range(rounds)
            ]
            asyncio.run(_store_backlog(session_maker, project.id))
            queued = asyncio.run(_queue_backfill(session_maker))
            during = []
            for _ in range(rounds):
                result = wrk(target, script=script, connections=CONNECTIONS, seconds=seconds)
                if not asyncio.run(_embedding_jobs_left(session_maker)):
                    break
                during.append(result)
            left = asyncio.run(_embedding_jobs_left(session_maker))
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)
    if any(result.non_2xx for result in idle + during):
        raise SystemExit("rating submits failed during the backfill bench")
    if not during:
        raise SystemExit("the backfill finished before a round ended: raise BACKLOG")
    before = statistics.median(result.rps for result in idle)
    while_embedding = statistics.median(result.rps for result in during)
    p99_before = statistics.median(result.p99_ms for result in idle)
    p99_during = statistics.median(result.p99_ms for result in during)
    record(
        f"rating submit, idle / while a backfill embeds (c={CONNECTIONS}, PostgreSQL, 1 worker)",
        f"{before:,.0f} / {while_embedding:,.0f} req/s = {while_embedding / before:.0%}; "
        f"p99 {p99_before:.1f} / {p99_during:.1f} ms ({queued:,} queued, {left:,} jobs still pending)",
        "(target: unchanged)",
    )
    return {
        "idle_rps": before,
        "backfill_rps": while_embedding,
        "ratio": while_embedding / before,
        "idle_p99_ms": p99_before,
        "backfill_p99_ms": p99_during,
        "rounds_during_backfill": len(during),
        "queued_items": queued,
    }
