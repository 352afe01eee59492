"""An endpoint deleted while the dispatcher saves attempts at its deliveries: both finish, on PostgreSQL
too, where each locks outbox rows. The dispatcher saves results in the order the attempts ended, and the
deletion took the rows in the order its scan met them; in opposite orders the two deadlocked and the
DELETE answered 503 (found by schemathesis in CI). Both now lock the jobs in id order first."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select, text

from app.config import Settings
from app.db.models import OutboxJob, WebhookAttempt, WebhookEndpoint
from app.db.transactions import unit_of_work
from app.outbox import Outcome
from app.outbox import queue as outbox_queue
from app.outbox.queue import claim, finish
from app.webhooks.endpoints import WebhookEndpoints
from app.webhooks.events import WEBHOOK_JOB
from tenants.scope import operator_scope
from tests.factories import make_tenant
from tests.lock_waits import (
    Maker,
    emptied_postgres,
    held_while_it_waits,
    move_to_the_end,
    until_waiting_on_a_lock,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
async def postgres(postgres_url: str) -> AsyncIterator[tuple[Settings, Maker]]:
    async with emptied_postgres(postgres_url) as sessions:
        yield sessions


async def test_deleting_an_endpoint_while_its_attempts_are_saved(
    postgres: tuple[Settings, Maker], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, session_maker = postgres
    tenant = await make_tenant(session_maker)
    scope = operator_scope(tenant.org_id, "tests")
    async with unit_of_work(session_maker) as session:
        webhooks = WebhookEndpoints(session, scope, settings)
        endpoint_id = (await webhooks.create(url="http://127.0.0.1:9/gone")).endpoint.id
        endpoint = await webhooks.get(endpoint_id)
        for _ in range(2):
            await webhooks.send_test(endpoint)
    async with unit_of_work(session_maker) as session:
        first, second = sorted(await claim(session, [WEBHOOK_JOB], 10, 60), key=lambda job: job.id)
    failed = Outcome(ok=False, error="connection refused")
    # The later job's attempt ended first; the save pauses after it until the deletion waits.
    results = [(second, failed, (1.0,)), (first, failed, (1.0,))]
    saved_one = asyncio.Event()
    deletion_waits = asyncio.Event()
    save = outbox_queue._save

    async def save_then_pause(*args: Any) -> Any:
        ids = await save(*args)
        if not saved_one.is_set():
            saved_one.set()
            await deletion_waits.wait()
        return ids

    monkeypatch.setattr(outbox_queue, "_save", save_then_pause)

    async def delete_endpoint() -> None:
        await saved_one.wait()
        async with unit_of_work(session_maker) as session:
            webhooks = WebhookEndpoints(session, scope, settings)
            await webhooks.delete(await webhooks.get(endpoint_id))

    async def save_results() -> int:
        async with unit_of_work(session_maker) as session:
            return await finish(session, results)

    saving = asyncio.create_task(save_results())
    deleting = asyncio.create_task(delete_endpoint())
    await saved_one.wait()
    await until_waiting_on_a_lock(session_maker, deleting)
    deletion_waits.set()
    assert await saving == 2
    await deleting  # raised DeadlockDetected (or the save did) before the fix

    async with session_maker() as session:
        assert await session.get(WebhookEndpoint, endpoint_id) is None
        left = await session.scalar(
            select(func.count()).select_from(OutboxJob).where(OutboxJob.id.in_([first.id, second.id]))
        )
        attempts = await session.scalar(select(func.count()).select_from(WebhookAttempt))
    assert (left, attempts) == (0, 0)


async def test_a_deletion_takes_the_jobs_in_id_order_whatever_order_it_meets_them(
    postgres: tuple[Settings, Maker],
) -> None:
    """The first job is written again, so that its row comes after the second in the table (and its
    delivery after the second's): a deletion waiting for the first job holds no lock on the second,
    which a save of both (taking them in id order) could otherwise be waiting for."""
    settings, session_maker = postgres
    tenant = await make_tenant(session_maker)
    scope = operator_scope(tenant.org_id, "tests")
    async with unit_of_work(session_maker) as session:
        webhooks = WebhookEndpoints(session, scope, settings)
        endpoint = (await webhooks.create(url="http://127.0.0.1:9/gone")).endpoint
        first, second = sorted([(await webhooks.send_test(endpoint)).id for _ in range(2)])
    async with unit_of_work(session_maker) as session:
        for table in ("outbox_jobs", "webhook_deliveries"):
            await move_to_the_end(session, table, first)
        scanned = list(await session.scalars(text("SELECT id FROM outbox_jobs ORDER BY ctid")))
    assert scanned == [second, first]

    async def delete_endpoint() -> None:
        async with unit_of_work(session_maker) as session:
            webhooks = WebhookEndpoints(session, scope, settings)
            await webhooks.delete(await webhooks.get(endpoint.id))

    held = await held_while_it_waits(
        session_maker, (OutboxJob.id, first), delete_endpoint(), [(OutboxJob.id, second)]
    )
    assert held == [False]
