"""Delivery survives crashes: work committed before a process died is delivered after a restart, an
attempt cut short is made again once its lease ends, and several processes deliver each event once."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import httpx
import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import OutboxJob
from app.db.transactions import unit_of_work
from app.main import create_app
from app.outbox import Dispatcher, Outcome
from app.outbox.queue import claim, finish
from app.services.feedback_items import FeedbackItems
from app.webhooks.delivery import WebhookSender, webhook_client
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.events import WEBHOOK_JOB
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.public.servers import running_server, server_env
from tests.receivers import Receiver, Script, receiver


async def subscribe(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings, tenant: Tenant, url: str
) -> str:
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id, "tests")
        return (await WebhookEndpoints(session, scope, settings).create(url=url)).secret


async def add_feedback(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, message: str) -> None:
    async with unit_of_work(session_maker) as session:
        await FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project).create(
            message=message
        )


async def test_work_committed_before_a_crash_is_delivered_after_the_restart(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, hook: Receiver
) -> None:
    """Committed by a process that stopped before its dispatcher ran (here: no server was running)."""
    await subscribe(session_maker, settings, tenant, hook.url)
    await add_feedback(session_maker, tenant, "Written just before the crash")
    await asyncio.sleep(0.3)
    assert hook.requests == []
    async with AsyncTestClient(app=create_app(settings)):
        (request,) = await hook.wait_for(1)
    assert b"Written just before the crash" in request.body


async def test_an_attempt_cut_short_is_made_again_after_its_lease(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    with receiver(Script(statuses=[204], delay_seconds=1.0)) as slow:
        await subscribe(session_maker, settings, tenant, slow.url)
        await add_feedback(session_maker, tenant, "Cut short")
        async with webhook_client(settings) as client:
            sender = WebhookSender(session_maker, settings, client)
            first = Dispatcher(
                session_maker, [sender], wake=asyncio.Event(), poll_seconds=0.05, lease_seconds=1.5
            )
            first.start()
            await slow.wait_for(1)
            await first.stop(grace_seconds=0)  # the process dies mid-attempt
            second = Dispatcher(
                session_maker, [sender], wake=asyncio.Event(), poll_seconds=0.05, lease_seconds=1.5
            )
            second.start()
            try:
                requests = await slow.wait_for(2, seconds=10)
                for _ in range(100):
                    async with unit_of_work(session_maker) as session:
                        job = await session.scalar(select(OutboxJob).where(OutboxJob.kind == WEBHOOK_JOB))
                    if job is not None and job.status == "succeeded":
                        break
                    await asyncio.sleep(0.05)
            finally:
                await second.stop()
    assert requests[0].headers["webhook-id"] == requests[1].headers["webhook-id"]
    assert job is not None and (job.status, job.attempts) == ("succeeded", 1)


async def test_a_result_saved_after_the_lease_was_taken_over_is_dropped(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, hook: Receiver
) -> None:
    await subscribe(session_maker, settings, tenant, hook.url)
    await add_feedback(session_maker, tenant, "Claimed twice")
    async with unit_of_work(session_maker) as session:
        (stale,) = await claim(session, ["webhook"], 10, lease_seconds=-1)  # a lease already over
    async with unit_of_work(session_maker) as session:
        (current,) = await claim(session, ["webhook"], 10, lease_seconds=60)
    async with unit_of_work(session_maker) as session:
        assert await finish(session, [(stale, Outcome(ok=True), [1.0])]) == 0
        assert await claim(session, ["webhook"], 10, lease_seconds=60) == []
    async with unit_of_work(session_maker) as session:
        assert await finish(session, [(current, Outcome(ok=False, error="nope"), [1.0])]) == 1
    async with unit_of_work(session_maker) as session:
        job = await session.scalar(select(OutboxJob).where(OutboxJob.kind == WEBHOOK_JOB))
    assert job is not None and (job.status, job.attempts, job.last_error, job.locked_until) == (
        "pending",
        1,
        "nope",
        None,
    )
    assert job.due_at - current.lease > timedelta(seconds=-60)


@pytest.mark.postgres
async def test_two_server_processes_deliver_each_event_once(
    database_url: str, settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL; SQLite runs one")
    events = 60
    with receiver(Script(statuses=[204], delay_seconds=0.01)) as hook:
        await subscribe(session_maker, settings, tenant, hook.url)
        env = server_env(database_url, HEARKEN_OUTBOX_POLL_SECONDS="0.02")
        with running_server(env) as first, running_server(env) as second:
            async with httpx.AsyncClient() as client:
                for index in range(events):
                    if index % 3 == 2:  # committed elsewhere: both dispatchers find it by polling
                        await add_feedback(session_maker, tenant, f"Item {index}")
                        continue
                    base = (first, second)[index % 2]
                    response = await client.post(
                        f"{base}/api/v1/projects/{tenant.project_id}/feedback",
                        json={"message": f"Item {index}"},
                        headers=tenant.headers,
                    )
                    assert response.status_code == 201
            await hook.wait_for(events, seconds=30)
            await asyncio.sleep(1.0)
    ids = Counter(request.headers["webhook-id"] for request in hook.requests)
    assert len(ids) == events and set(ids.values()) == {1}
    async with unit_of_work(session_maker) as session:
        jobs = list(await session.scalars(select(OutboxJob).where(OutboxJob.kind == WEBHOOK_JOB)))
    assert {(job.status, job.attempts) for job in jobs} == {("succeeded", 1)}
