"""Stripe cancellation feedback: the per-project integration, and signed deliveries to its URL.

Events are signed with the `stripe` package's own signer, independently of the receiver's verifier.
"""

from __future__ import annotations

import json
import time
from typing import Any
from uuid import uuid4

import stripe
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, StripeIntegration
from app.db.transactions import unit_of_work
from tests.factories import Tenant

SECRET = "whsec_test0123456789abcdefghijklmnop"


def integration_url(tenant: Tenant) -> str:
    return f"/api/v1/projects/{tenant.project_id}/integrations/stripe"


def cancellation(event_id: str = "evt_1", **details: Any) -> dict[str, Any]:
    return {
        "id": event_id,
        "type": "customer.subscription.deleted",
        "data": {
            "object": {
                "id": "sub_42",
                "customer": "cus_Abc123",
                "cancel_at_period_end": False,
                "cancellation_details": {"comment": None, "feedback": None, "reason": None, **details},
            }
        },
    }


def signed(
    event: dict[str, Any] | str, secret: str = SECRET, at: int | None = None
) -> tuple[str, dict[str, str]]:
    body = event if isinstance(event, str) else json.dumps(event)
    header = stripe.WebhookSignature.generate_signature_header(body, secret, timestamp=at)
    return body, {"Stripe-Signature": header, "Content-Type": "application/json; charset=utf-8"}


async def enable(client: AsyncTestClient, tenant: Tenant, secret: str = SECRET) -> str:
    response = await client.put(
        integration_url(tenant), json={"signing_secret": secret}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    url: str = response.json()["webhook_url"]
    return url.removeprefix("http://127.0.0.1:8000")


async def deliver(client: AsyncTestClient, url: str, event: dict[str, Any] | str, **signing: Any) -> Any:
    body, headers = signed(event, **signing)
    return await client.post(url, content=body, headers=headers)


async def stripe_feedback(client: AsyncTestClient, tenant: Tenant) -> list[dict[str, Any]]:
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback?source=Stripe", headers=tenant.read_headers
    )
    assert response.status_code == 200
    return response.json()["feedback"]


async def feedback_rows(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(FeedbackItem)) or 0)


async def test_enabling_shows_the_url_and_never_the_secret(client: AsyncTestClient, tenant: Tenant) -> None:
    put = await client.put(integration_url(tenant), json={"signing_secret": SECRET}, headers=tenant.headers)
    assert put.status_code == 200
    body = put.json()
    assert body["enabled"] is True
    assert body["webhook_url"].startswith("http://127.0.0.1:8000/api/v1/integrations/stripe/")
    assert SECRET not in put.text
    got = await client.get(integration_url(tenant), headers=tenant.read_headers)
    assert got.json() == body and SECRET not in got.text
    again = await client.put(
        integration_url(tenant), json={"signing_secret": SECRET + "x"}, headers=tenant.headers
    )
    assert again.json()["webhook_url"] == body["webhook_url"]  # the URL pasted into Stripe stays valid


async def test_the_secret_is_stored_encrypted(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await enable(client, tenant)
    async with unit_of_work(session_maker) as session:
        stored = await session.scalar(select(StripeIntegration.sealed_signing_secret))
    assert stored and SECRET not in stored and "test0123456789" not in stored


async def test_bad_secrets_are_400_naming_the_field(client: AsyncTestClient, tenant: Tenant) -> None:
    for secret in ("", "sk_live_123", "whsec_ has spaces", 42):
        response = await client.put(
            integration_url(tenant), json={"signing_secret": secret}, headers=tenant.headers
        )
        assert response.status_code == 400, secret
        assert "signing_secret" in response.json()["details"]
    assert (await client.get(integration_url(tenant), headers=tenant.headers)).status_code == 404


async def test_a_cancellation_with_a_comment_becomes_one_feedback_item(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = await enable(client, tenant)
    event = cancellation(
        comment="Too pricey for a team of two", feedback="too_expensive", reason="cancellation_requested"
    )
    response = await deliver(client, url, event)
    assert response.status_code == 200, response.text
    (item,) = await stripe_feedback(client, tenant)
    assert (item["message"], item["source"], item["type"], item["status"], item["submitted_by"]) == (
        "Too pricey for a team of two",
        "Stripe",
        "Other",
        "New",
        "cus_Abc123",
    )
    assert item["metadata"] == {
        "stripe_event_id": "evt_1",
        "stripe_customer": "cus_Abc123",
        "stripe_subscription": "sub_42",
        "cancellation_feedback": "too_expensive",
        "cancellation_reason": "cancellation_requested",
    }
    project = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
    assert project.json()["feedback_count"] == 1


async def test_without_a_comment_the_reason_is_written_as_a_sentence(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = await enable(client, tenant)
    event = cancellation(feedback="too_expensive")
    event["type"] = "customer.subscription.updated"
    event["data"]["object"]["cancel_at_period_end"] = True
    assert (await deliver(client, url, event)).status_code == 200
    (item,) = await stripe_feedback(client, tenant)
    assert item["message"] == "Cancelled: too expensive"
    assert item["metadata"]["cancellation_feedback"] == "too_expensive"


async def test_the_same_event_twice_stores_one_item(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    event = cancellation(comment="Missing SSO")
    first, second = await deliver(client, url, event), await deliver(client, url, event)
    assert (first.status_code, second.status_code) == (200, 200)
    assert (first.json()["stored"], second.json()["stored"]) == (True, False)
    assert len(await stripe_feedback(client, tenant)) == 1


async def test_other_events_and_silent_cancellations_store_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    url = await enable(client, tenant)
    updated_not_ending = cancellation("evt_2", comment="x")
    updated_not_ending["type"] = "customer.subscription.updated"
    unrelated = [
        {"id": "evt_3", "type": "invoice.paid", "data": {"object": {"id": "in_1"}}},
        cancellation("evt_4"),  # no comment, no feedback
        updated_not_ending,
        {"id": "evt_5", "type": "customer.subscription.deleted", "data": "not an object"},
        [1, 2, 3],
        "not json at all {",
        '{"id": 7}',
    ]
    for event in unrelated:
        response = await deliver(client, url, event)  # type: ignore[arg-type]
        assert response.status_code == 200, (event, response.text)
        assert response.json()["stored"] is False
    assert await feedback_rows(session_maker) == 0


async def test_bad_signatures_are_400_and_store_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    url = await enable(client, tenant)
    event = cancellation(comment="Missing SSO")
    body, good = signed(event)
    cases = {
        "wrong secret": signed(event, secret="whsec_another")[1],
        "stale": signed(event, at=int(time.time()) - 301)[1],
        "missing": {"Content-Type": "application/json"},
        "malformed": {"Stripe-Signature": "garbage"},
        "no v1": {"Stripe-Signature": f"t={int(time.time())},v0=abc"},
        "non-ascii": {"Stripe-Signature": f"t={int(time.time())},v1=é".encode()},  # type: ignore[dict-item]
        "body changed": good,
    }
    for name, headers in cases.items():
        content = body.replace("SSO", "SAML") if name == "body changed" else body
        response = await client.post(url, content=content, headers=headers)
        assert response.status_code == 400, name
        assert response.json()["error"] == "invalid_signature", name
    assert await feedback_rows(session_maker) == 0


async def test_several_v1_signatures_any_one_may_match(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    body, headers = signed(cancellation(comment="Rolling secrets"))
    t, v1 = headers["Stripe-Signature"].split(",")
    headers["Stripe-Signature"] = f"{t},v1={'0' * 64},{v1}"
    response = await client.post(url, content=body, headers=headers)
    assert response.status_code == 200 and response.json()["stored"] is True


async def test_a_signature_of_four_minutes_ago_is_accepted(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    response = await deliver(client, url, cancellation(comment="late"), at=int(time.time()) - 240)
    assert response.status_code == 200 and response.json()["stored"] is True


async def test_unknown_or_removed_integrations_are_404(client: AsyncTestClient, tenant: Tenant) -> None:
    url = await enable(client, tenant)
    assert (
        await deliver(client, f"/api/v1/integrations/stripe/{uuid4()}", cancellation())
    ).status_code == 404
    assert (
        await deliver(client, "/api/v1/integrations/stripe/not-a-uuid", cancellation())
    ).status_code == 404
    assert (await client.delete(integration_url(tenant), headers=tenant.headers)).status_code == 204
    assert (await deliver(client, url, cancellation(comment="after removal"))).status_code == 404
    assert (await client.get(integration_url(tenant), headers=tenant.headers)).status_code == 404
    assert (await client.delete(integration_url(tenant), headers=tenant.headers)).status_code == 204


async def test_the_receiver_needs_no_token_and_ignores_origin(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = await enable(client, tenant)
    body, headers = signed(cancellation(comment="from anywhere"))
    response = await client.post(url, content=body, headers={**headers, "Origin": "https://evil.example"})
    assert response.status_code == 200 and response.json()["stored"] is True


async def test_many_deliveries_from_one_address_are_not_rate_limited(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = await enable(client, tenant)
    statuses = {
        (await deliver(client, url, cancellation(f"evt_{n}", comment="x"))).status_code for n in range(40)
    }
    assert statuses == {200}
    assert len(await stripe_feedback(client, tenant)) == 20  # one page of the 40


async def test_a_signed_event_passes_the_nesting_and_nul_rules_of_requests(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    """Signed is not harmless: an event nested 2,000 deep is 400 as any request body would be (it was a
    500), and NUL characters are stripped from what the import keeps."""
    url = await enable(client, tenant)
    deep = cancellation("evt_deep", comment="x")
    deep["data"]["object"]["nested"] = "NESTED"
    response = await deliver(client, url, json.dumps(deep).replace('"NESTED"', "[" * 2000 + "]" * 2000))
    assert response.status_code == 400, response.text
    assert response.json()["details"].startswith("body") and "nest" in response.json()["details"]
    nul = cancellation("evt_\x00nul", comment="Too\x00 pricey", feedback="too_\x00expensive")
    nul["data"]["object"]["customer"] = "cus_\x00A"
    response = await deliver(client, url, nul)
    assert response.json() == {"received": True, "stored": True}, response.text
    [item] = await stripe_feedback(client, tenant)
    assert item["message"] == "Too pricey" and item["submitted_by"] == "cus_A"
    assert "\x00" not in json.dumps(item) and item["metadata"]["stripe_event_id"] == "evt_nul"
