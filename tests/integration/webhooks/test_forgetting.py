"""Webhook deliveries hold copies of what they were about: an erasure and a retention delete those
copies with the items (so neither the delivery log nor "Retry" holds on to them), and every finished
delivery goes after 30 days."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import FeedbackItem, FeedbackSource, JobStatus, OutboxJob, WebhookAttempt, WebhookDelivery
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.services.retention import apply_retention, prune_old_deliveries
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.webhooks.conftest import QUICK_RETRIES, add_webhook
from tests.receivers import Receiver


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        webhook_retry_schedule=QUICK_RETRIES,
        outbox_poll_seconds=0.05,
        periodic_jobs=False,
    )


async def settled(session_maker: async_sessionmaker[AsyncSession], expected: int) -> None:
    """Wait until `expected` deliveries exist and none is pending."""
    for _ in range(200):
        async with session_maker() as session:
            total = await session.scalar(select(func.count()).select_from(WebhookDelivery))
            pending = await session.scalar(
                select(func.count()).select_from(OutboxJob).where(OutboxJob.status == JobStatus.PENDING)
            )
        if total == expected and not pending:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{total} deliveries, {pending} pending")


async def bodies(session_maker: async_sessionmaker[AsyncSession]) -> list[str]:
    async with session_maker() as session:
        return list(await session.scalars(select(WebhookDelivery.body)))


def names_ada(body: str) -> bool:
    """Ada as a word: a random id's hex digits may spell "ada" too."""
    return re.search(r"\bada\b", body.lower()) is not None


async def test_erasure_deletes_the_deliveries_that_carried_the_persons_data(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    hook: Receiver,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    webhook = await add_webhook(client, tenant, hook.url)
    scope = operator_scope(tenant.org_id, "tests")
    async with unit_of_work(session_maker) as session:
        await ContactMessages(session, scope, tenant.project).create(
            name="Ada Lovelace", email="ada@example.org", message="call me on 555-0100"
        )
        items = FeedbackItems(session, scope, tenant.project)
        theirs = await items.create(message="ada's own words", submitted_by="user-ada")
        await items.update(theirs, {"status": "Closed"})
        await items.create(
            message="imported from Mintlify",
            source=FeedbackSource.MINTLIFY,
            metadata={"mintlify_id": "fb_1", "contact": "ADA@example.org"},
        )
        await items.create(message="someone else's", submitted_by="user-bob")
    await settled(session_maker, 5)
    async with session_maker() as session:
        delivery_ids = [str(i) for i in await session.scalars(select(WebhookDelivery.id))]
    assert sum(names_ada(body) for body in await bodies(session_maker)) == 4

    erased = await client.post(
        "/api/v1/privacy/erase",
        json={"email": "ada@example.org", "submitted_by": "user-ada"},
        headers=tenant.headers,
    )
    assert erased.json() == {
        "feedback": 2,
        "ratings": 0,
        "contact_messages": 1,
        "survey_responses": 0,
        "conversations": 0,
    }

    left = await bodies(session_maker)
    assert len(left) == 1 and "someone else's" in left[0]
    assert not [body for body in left if names_ada(body)]
    async with session_maker() as session:
        attempts = await session.scalar(select(func.count()).select_from(WebhookAttempt))
        imported = await session.scalar(
            select(func.count()).select_from(FeedbackItem).where(FeedbackItem.source == "Mintlify")
        )
    assert (attempts, imported) == (1, 0)
    base = f"/api/v1/webhooks/{webhook['id']}/deliveries"
    listed = (await client.get(base, headers=tenant.headers)).json()["deliveries"]
    assert len(listed) == 1
    gone = next(ident for ident in delivery_ids if ident != listed[0]["id"])
    retry = await client.post(f"{base}/{gone}/retry", headers=tenant.headers)
    assert retry.status_code == 404


async def test_retention_and_age_prune_deliveries(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    hook: Receiver,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    await add_webhook(client, tenant, hook.url)
    scope = operator_scope(tenant.org_id, "tests")
    now = utc_now()
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, scope, tenant.project)
        await items.create(message="old words", created_at=now - timedelta(days=10))
        await items.create(message="fresh words")
    await settled(session_maker, 2)
    async with unit_of_work(session_maker) as session:  # the old item's event was sent 10 days ago too
        old = select(WebhookDelivery.id).where(WebhookDelivery.body.contains("old words")).scalar_subquery()
        await session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id == old)
            .values(created_at=now - timedelta(days=10))
        )

    removed = await apply_retention(session_maker, tenant.project.id, 7, now)
    assert (removed.feedback, removed.webhook_deliveries) == (1, 1)
    assert [("fresh words" in body) for body in await bodies(session_maker)] == [True]

    assert await prune_old_deliveries(session_maker, now=now) == 0  # a finished delivery stays 30 days
    assert await prune_old_deliveries(session_maker, now=now + timedelta(days=31)) == 1
    async with session_maker() as session:
        left = [
            await session.scalar(select(func.count()).select_from(model))
            for model in (WebhookDelivery, WebhookAttempt)
        ]
    assert left == [0, 0]
