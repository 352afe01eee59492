"""Endpoint secrets at rest and their rotation: the stored column never holds the secret; a rotation
answers the new secret once; during the overlap every request carries a signature by each secret, after
it only the new one's; only those who may change an endpoint rotate its secret, and no answer, audit
entry or log line ever shows a secret."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from app.db.models import WebhookEndpoint
from app.db.transactions import unit_of_work
from app.services.retention import forget_ended_secrets
from app.timestamps import utc_now
from tests.factories import Tenant
from tests.integration.webhooks.conftest import add_webhook
from tests.receivers import Received, Receiver

HOOKS = "/api/v1/webhooks"


async def stored_rows(session_maker: async_sessionmaker[AsyncSession]) -> list[tuple[Any, ...]]:
    """Every column of every endpoint row as the database holds it."""
    async with session_maker() as session:
        rows = (await session.execute(text("SELECT * FROM webhook_endpoints"))).all()
    return [tuple(row) for row in rows]


async def delivered_test(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver, webhook_id: str
) -> Received:
    before = len(hook.requests)
    queued = await client.post(f"{HOOKS}/{webhook_id}/test", headers=tenant.headers)
    assert queued.status_code == 202
    return (await hook.wait_for(before + 1))[-1]


def verifies(secret: str, request: Received) -> bool:
    try:
        Webhook(secret).verify(request.body, request.headers)
    except WebhookVerificationError:
        return False
    return True


async def test_the_stored_secret_is_not_the_secret(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    hook: Receiver,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    rotated = await client.post(f"{HOOKS}/{created['id']}/rotate-secret", headers=tenant.headers)
    assert rotated.status_code == 201
    rows = await stored_rows(session_maker)
    assert len(rows) == 1
    stored = repr(rows)
    for secret in (created["secret"], rotated.json()["secret"]):
        assert secret not in stored and secret.removeprefix("whsec_") not in stored


async def test_both_secrets_sign_during_the_overlap_and_only_the_new_one_after(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    hook: Receiver,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    old = created["secret"]
    assert verifies(old, await delivered_test(client, tenant, hook, created["id"]))

    rotated = await client.post(f"{HOOKS}/{created['id']}/rotate-secret", headers=tenant.headers)
    assert rotated.status_code == 201
    answer: dict[str, Any] = rotated.json()
    assert set(answer) == {"secret", "previous_secret_expires_at"}
    new = answer["secret"]
    assert new.startswith("whsec_") and new != old and old not in rotated.text
    expires = answer["previous_secret_expires_at"]
    overlap = utc_now() + timedelta(hours=24)
    assert abs((overlap - datetime.fromisoformat(expires)).total_seconds()) < 60

    during = await delivered_test(client, tenant, hook, created["id"])
    assert verifies(new, during) and verifies(old, during)
    assert len(during.headers["webhook-signature"].split(" ")) == 2

    async with unit_of_work(session_maker) as session:  # the overlap has ended
        await session.execute(
            update(WebhookEndpoint).values(previous_secret_expires_at=utc_now() - timedelta(seconds=1))
        )
    after = await delivered_test(client, tenant, hook, created["id"])
    assert verifies(new, after) and not verifies(old, after)
    assert len(after.headers["webhook-signature"].split(" ")) == 1

    assert await forget_ended_secrets(session_maker) == 1  # the periodic retention look drops it
    async with session_maker() as session:
        row = await session.scalar(select(WebhookEndpoint))
        assert (
            row is not None and row.sealed_previous_secret is None and row.previous_secret_expires_at is None
        )
    assert await forget_ended_secrets(session_maker) == 0


async def test_a_second_rotation_ends_the_oldest_secret(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    url = f"{HOOKS}/{created['id']}/rotate-secret"
    second = (await client.post(url, headers=tenant.headers)).json()["secret"]
    third = (await client.post(url, headers=tenant.headers)).json()["secret"]
    request = await delivered_test(client, tenant, hook, created["id"])
    assert verifies(third, request) and verifies(second, request) and not verifies(created["secret"], request)


async def test_only_who_may_change_the_endpoint_rotates_its_secret(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    url = f"{HOOKS}/{created['id']}/rotate-secret"
    read = await client.post(url, headers=tenant.read_headers)
    assert read.status_code == 403 and read.json()["error"] == "forbidden"
    foreign = await client.post(url, headers=other_tenant.headers)
    assert foreign.status_code == 404 and foreign.json()["error"] == "not_found"
    unknown = await client.post(
        f"{HOOKS}/{'0' * 8}-0000-7000-8000-{'0' * 12}/rotate-secret", headers=tenant.headers
    )
    assert unknown.status_code == 404
    malformed = await client.post(f"{HOOKS}/not-an-id/rotate-secret", headers=tenant.headers)
    assert malformed.status_code == 400
    request = await delivered_test(client, tenant, hook, created["id"])
    assert verifies(created["secret"], request)
    assert len(request.headers["webhook-signature"].split(" ")) == 1  # nothing was rotated


async def test_the_rotation_is_audited_and_no_secret_is_shown_or_logged(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    created = await add_webhook(client, tenant, hook.url)
    rotated = await client.post(f"{HOOKS}/{created['id']}/rotate-secret", headers=tenant.headers)
    await delivered_test(client, tenant, hook, created["id"])
    entries = (await client.get("/api/v1/audit-log", headers=tenant.headers)).json()["entries"]
    (rotation,) = [entry for entry in entries if entry["action"] == "webhook.secret_rotated"]
    assert rotation["target_type"] == "webhook" and rotation["target_id"] == created["id"]
    assert rotation["details"]["secret"] == "changed"
    shown = [
        (await client.get(path, headers=tenant.headers)).text
        for path in (
            HOOKS,
            f"{HOOKS}/{created['id']}",
            "/api/v1/audit-log",
            f"{HOOKS}/{created['id']}/deliveries",
        )
    ]
    logged = "\n".join(record.getMessage() + repr(record.__dict__) for record in caplog.records)
    for secret in (created["secret"], rotated.json()["secret"]):
        key = secret.removeprefix("whsec_")
        assert all(key not in page for page in shown)
        assert key not in logged
