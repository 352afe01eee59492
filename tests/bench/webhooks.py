"""Feedback ingest with and without a subscribed webhook endpoint: the outbox row written with each item
and the deliveries the dispatcher makes beside the requests must not halve feedback throughput.

Public feedback submits go to two organizations on one server (PostgreSQL, one worker): one without
webhooks, one whose endpoint (a real receiver on 127.0.0.1) subscribes to every event. The two are
alternated over rounds; then the time the dispatcher needs to deliver what is left is measured.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import JobStatus, OutboxJob
from app.db.transactions import unit_of_work
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.events import WEBHOOK_JOB
from tenants.scope import operator_scope
from tests import databases
from tests.bench import seed
from tests.bench.load import post_script, wrk
from tests.bench.servers import start
from tests.receivers import receiver

CONNECTIONS = 32


def feedback_script(project_key: str) -> str:
    body = f'\'{{"project_key":"{project_key}","message":"Bench feedback \' .. n .. \'","type":"Bug"}}\''
    return post_script(
        "/api/v1/feedback/submit", body, {"Content-Type": "application/json", "Origin": seed.ORIGIN}
    )


async def _subscribe(session_maker: async_sessionmaker[AsyncSession], settings: Settings, url: str) -> Any:
    """A second organization with a project and one endpoint for every event; returns the project."""
    _, (project, *_) = await seed.tenant(session_maker)
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(project.org_id, "bench")
        await WebhookEndpoints(session, scope, settings).create(url=url)
    return project


async def _pending(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with unit_of_work(session_maker) as session:
        count = await session.scalar(
            select(func.count())
            .select_from(OutboxJob)
            .where(OutboxJob.status == JobStatus.PENDING.value, OutboxJob.kind == WEBHOOK_JOB)
        )
    return int(count or 0)


def webhooks_part(
    record: Callable[..., None], app_env: Callable[[str, bool], dict[str, str]], rounds: int, seconds: int
) -> dict[str, Any]:
    print("Feedback ingest with a webhook endpoint (PostgreSQL, 1 worker)", flush=True)
    url = databases.postgres_create()
    env = app_env(url, True)
    # The server's key: the endpoint's signing secret is sealed with it, and one sealed under another
    # key fails every delivery (nothing was delivered while this said "bench").
    settings = Settings(database_url=url, secret_key=env["HEARKEN_SECRET_KEY"])
    config = build_db_config(settings)
    session_maker = config.create_session_maker()
    try:
        with receiver() as hook:
            _, (plain, *_) = asyncio.run(seed.tenant(session_maker))
            subscribed = asyncio.run(_subscribe(session_maker, settings, hook.url))
            server = start("app.main:create_app", workers=1, env=env)
            try:
                target = server.url + "/api/v1/feedback/submit"
                scripts = {
                    "without": feedback_script(str(plain.key)),
                    "with": feedback_script(str(subscribed.key)),
                }
                runs: dict[str, list[float]] = {"without": [], "with": []}
                for round_ in range(rounds):
                    for name in ("without", "with") if round_ % 2 == 0 else ("with", "without"):
                        result = wrk(target, script=scripts[name], connections=CONNECTIONS, seconds=seconds)
                        if result.non_2xx:
                            raise SystemExit(f"feedback submit ({name} webhook) failed: {result}")
                        runs[name].append(result.rps)
                backlog = asyncio.run(_pending(session_maker))
                started = time.monotonic()
                while asyncio.run(_pending(session_maker)) and time.monotonic() - started < 120:
                    time.sleep(0.2)
                drained = time.monotonic() - started
            finally:
                server.stop()
            delivered = len(hook.requests)
            if left := asyncio.run(_pending(session_maker)):
                raise SystemExit(f"{left:,} webhook deliveries were still pending 120 s after the load")
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)
    without, with_ = statistics.median(runs["without"]), statistics.median(runs["with"])
    ratios = [w / wo for w, wo in zip(runs["with"], runs["without"], strict=True)]
    record(
        f"feedback submit without / with a webhook endpoint (c={CONNECTIONS}, median of {rounds} rounds)",
        f"{without:,.0f} / {with_:,.0f} req/s = {statistics.median(ratios):.0%}",
        "(target >= 50%)",
    )
    record(
        "webhook deliveries left when the load stopped, and the time to deliver them",
        f"{backlog:,} left, delivered in {drained:.1f} s ({delivered:,} delivered in all)",
    )
    return {
        "without_rps": without,
        "with_rps": with_,
        "ratio": statistics.median(ratios),
        "round_ratios": [round(r, 3) for r in ratios],
        "backlog": backlog,
        "drain_seconds": round(drained, 1),
        "delivered": delivered,
    }
