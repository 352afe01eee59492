"""Polar cancellation feedback: the per-project integration, and deliveries signed as Polar signs them
(tests/fake_polar.py signs on the standard library; the receiver verifies with `standardwebhooks`)."""

from __future__ import annotations

import time
from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, PolarIntegration
from app.db.transactions import unit_of_work
from tests.factories import Tenant
from tests.fake_polar import signed_delivery, subscription_canceled

SECRET = "polar_whs_0123456789abcdefghijklmnopqrstuvwxyzABCDEF"
API_KEY = "polar_oat_restricted0123456789"


def integration_url(tenant: Tenant) -> str:
    return f"/api/v1/projects/{tenant.project_id}/integrations/polar"


async def enable(client: AsyncTestClient, tenant: Tenant, **body: Any) -> str:
    response = await client.put(
        integration_url(tenant), json={"webhook_secret": SECRET, **body}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    url: str = response.json()["webhook_url"]
    return url.removeprefix("http://127.0.0.1:8000")


async def deliver(client: AsyncTestClient, url: str, event: dict[str, Any] | str, **signing: Any) -> Any:
    body, headers = signed_delivery(event, signing.pop("secret", SECRET), **signing)
    return await client.post(url, content=body, headers=headers)


async def polar_feedback(client: AsyncTestClient, tenant: Tenant) -> list[dict[str, Any]]:
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback?source=Polar", headers=tenant.read_headers
    )
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["feedback"]
    return items


async def feedback_rows(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(FeedbackItem)) or 0)


async def test_enabling_shows_the_url_and_never_a_secret(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    put = await client.put(
        integration_url(tenant), json={"webhook_secret": SECRET, "api_key": API_KEY}, headers=tenant.headers
    )
    assert put.status_code == 200, put.text
    body = put.json()
    assert body["webhook_url"].startswith("http://127.0.0.1:8000/api/v1/integrations/polar/")
    assert (body["enabled"], body["api_key_saved"]) == (True, True)
    got = await client.get(integration_url(tenant), headers=tenant.read_headers)
    assert got.json() == body
    for text in (put.text, got.text):
        assert SECRET not in text and API_KEY not in text
    again = await client.put(integration_url(tenant), json={"webhook_secret": SECRET}, headers=tenant.headers)
    assert again.json()["webhook_url"] == body["webhook_url"]
    assert again.json()["api_key_saved"] is True  # saving the secret alone keeps the key
    async with unit_of_work(session_maker) as session:
        row = await session.scalar(select(PolarIntegration))
    assert row is not None
    assert SECRET not in row.sealed_webhook_secret and API_KEY not in (row.sealed_api_key or "")
    assert (await client.delete(integration_url(tenant), headers=tenant.headers)).status_code == 204
    assert (await client.get(integration_url(tenant), headers=tenant.headers)).status_code == 404


async def test_bad_bodies_are_400_naming_the_field(client: AsyncTestClient, tenant: Tenant) -> None:
    cases = [
        ({"webhook_secret": ""}, "webhook_secret"),
        ({"webhook_secret": "has spaces in it"}, "webhook_secret"),
        ({"webhook_secret": 42}, "webhook_secret"),
        ({}, "webhook_secret"),
        ({"webhook_secret": SECRET, "api_key": "short"}, "api_key"),
        ({"webhook_secret": SECRET, "extra": 1}, "extra"),
    ]
    for body, field in cases:
        response = await client.put(integration_url(tenant), json=body, headers=tenant.headers)
        assert response.status_code == 400, body
        assert field in response.json()["details"], (body, response.json())
    assert (await client.get(integration_url(tenant), headers=tenant.headers)).status_code == 404


async def test_a_read_token_cannot_change_the_integration(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.put(
        integration_url(tenant), json={"webhook_secret": SECRET}, headers=tenant.read_headers
    )
    assert response.status_code == 403


async def test_a_cancellation_becomes_one_item_with_reason_and_comment(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = await enable(client, tenant)
    event = subscription_canceled(
        "sub-1", reason="missing_features", comment="No SSO yet", customer_id="cust-1"
    )
    response = await deliver(client, url, event, webhook_id="msg_one")
    assert response.status_code == 200, response.text
    assert response.json() == {"received": True, "stored": True}
    (item,) = await polar_feedback(client, tenant)
    assert (item["message"], item["source"], item["submitted_by"]) == ("No SSO yet", "Polar", "cust-1")
    assert item["metadata"] == {
        "polar_event_id": "msg_one",
        "polar_customer": "cust-1",
        "polar_subscription": "sub-1",
        "cancellation_feedback": "missing_features",
    }


async def test_without_a_comment_the_reason_is_the_message(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    assert (await deliver(client, url, subscription_canceled(comment=None))).status_code == 200
    (item,) = await polar_feedback(client, tenant)
    assert item["message"] == "Cancelled: too expensive"


async def test_a_replayed_event_is_stored_once(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    event = subscription_canceled()
    first = await deliver(client, url, event, webhook_id="msg_same")
    second = await deliver(client, url, event, webhook_id="msg_same")
    assert (first.json()["stored"], second.json()["stored"]) == (True, False)
    assert len(await polar_feedback(client, tenant)) == 1


async def test_other_events_and_silent_cancellations_store_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    url = await enable(client, tenant)
    others = [
        {"type": "subscription.revoked", "data": {"id": "s"}},
        subscription_canceled(reason=None, comment=None),
        {"type": "subscription.canceled", "data": "not an object"},
        "not json {",
        "[1, 2]",
    ]
    for event in others:
        response = await deliver(client, url, event)
        assert (response.status_code, response.json()["stored"]) == (200, False), event
    assert await feedback_rows(session_maker) == 0


async def test_wrong_missing_or_stale_signatures_are_400_and_store_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    url = await enable(client, tenant)
    event = subscription_canceled()
    body, good = signed_delivery(event, SECRET)
    now = int(time.time())
    cases: dict[str, tuple[str | bytes, dict[str, str]]] = {
        "wrong secret": signed_delivery(event, SECRET + "x"),
        "stale": signed_delivery(event, SECRET, at=now - 400),
        "from the future": signed_delivery(event, SECRET, at=now + 400),
        "missing signature": (body, {k: v for k, v in good.items() if k != "webhook-signature"}),
        "missing id": (body, {k: v for k, v in good.items() if k != "webhook-id"}),
        "missing timestamp": (body, {k: v for k, v in good.items() if k != "webhook-timestamp"}),
        "no comma": (body, {**good, "webhook-signature": "garbage"}),
        "bad base64": (body, {**good, "webhook-signature": "v1,@@@"}),
        "not a number": (body, {**good, "webhook-timestamp": "soon"}),
        "body changed": (body.replace("too_expensive", "unused"), good),
        "not utf-8": (b"\xff\xfe" + body.encode(), good),
    }
    for name, (content, headers) in cases.items():
        response = await client.post(url, content=content, headers=headers)
        assert response.status_code == 400, (name, response.text)
        assert response.json()["error"] == "invalid_signature", name
    assert await feedback_rows(session_maker) == 0


async def test_an_unknown_or_removed_endpoint_is_404(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    await client.delete(integration_url(tenant), headers=tenant.headers)
    assert (await deliver(client, url, subscription_canceled())).status_code == 404
    assert (await deliver(client, "/api/v1/integrations/polar/not-a-uuid", {})).status_code == 404
