"""Thank with a discount: the team's coupon applied through the local fakes of Stripe's and Polar's APIs
(tests/fake_stripe.py, tests/fake_polar.py), once per item, audited, sent as `feedback.rewarded`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import stripe
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AuditEntry, FeedbackReward, WebhookDelivery
from app.db.transactions import unit_of_work
from tests import fake_polar, fake_stripe
from tests.factories import Tenant
from tests.fake_polar import FakePolar, signed_delivery, subscription_canceled
from tests.fake_stripe import FakeStripe

STRIPE_SECRET = "whsec_test0123456789abcdefghijklmnop"
STRIPE_KEY = "rk_test_restricted0123456789"
POLAR_SECRET = "polar_whs_0123456789abcdefghijklmnopqrstuvwxyz"
POLAR_KEY = "polar_oat_restricted0123456789"
POLAR_DISCOUNT = "0b9a6c1e-3f0e-4c55-9d7a-5e5e5e5e5e5e"
BASE_URL = "http://127.0.0.1:8000"


@dataclass
class Fakes:
    stripe: FakeStripe
    polar: FakePolar


@pytest.fixture(scope="module")
def served_fakes() -> Iterator[Fakes]:
    with (
        fake_stripe.running(FakeStripe(api_key=STRIPE_KEY)) as stripe_fake,
        fake_polar.running(FakePolar(api_key=POLAR_KEY)) as polar_fake,
    ):
        yield Fakes(stripe_fake, polar_fake)


@pytest.fixture
def fakes(served_fakes: Fakes) -> Fakes:
    """The fakes with the team's coupons and subscriptions, nothing applied yet."""
    served_fakes.stripe.coupons = {"THANKS20"}
    served_fakes.stripe.subscriptions = {"sub_active": "active", "sub_gone": "canceled"}
    served_fakes.stripe.discounts.clear()
    served_fakes.stripe.answered.clear()
    served_fakes.stripe.requests.clear()
    served_fakes.polar.discounts = {POLAR_DISCOUNT}
    served_fakes.polar.subscriptions = {"polar-sub-1": "active", "polar-ended": "canceled"}
    served_fakes.polar.applied.clear()
    served_fakes.polar.requests.clear()
    return served_fakes


@pytest.fixture
def settings(database_url: str, fakes: Fakes) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        stripe_api_url=fakes.stripe.url,
        polar_api_url=fakes.polar.url,
        base_url=BASE_URL,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


async def stripe_item(
    client: AsyncTestClient,
    tenant: Tenant,
    subscription: str = "sub_active",
    *,
    api_key: str | None = STRIPE_KEY,
) -> dict[str, Any]:
    body: dict[str, Any] = {"signing_secret": STRIPE_SECRET} | ({"api_key": api_key} if api_key else {})
    put = await client.put(
        f"/api/v1/projects/{tenant.project_id}/integrations/stripe", json=body, headers=tenant.headers
    )
    assert put.status_code == 200, put.text
    event = {
        "id": f"evt_{subscription}",
        "type": "customer.subscription.deleted",
        "data": {
            "object": {
                "id": subscription,
                "customer": "cus_Abc123",
                "cancellation_details": {"comment": "Too pricey for two", "feedback": "too_expensive"},
            }
        },
    }
    payload = json.dumps(event)
    header = stripe.WebhookSignature.generate_signature_header(payload, STRIPE_SECRET)
    url = put.json()["webhook_url"].removeprefix(BASE_URL)
    delivered = await client.post(url, content=payload, headers={"Stripe-Signature": header})
    assert delivered.json()["stored"] is True, delivered.text
    return await newest(client, tenant, "Stripe")


async def polar_item(
    client: AsyncTestClient, tenant: Tenant, subscription: str = "polar-sub-1"
) -> dict[str, Any]:
    put = await client.put(
        f"/api/v1/projects/{tenant.project_id}/integrations/polar",
        json={"webhook_secret": POLAR_SECRET, "api_key": POLAR_KEY},
        headers=tenant.headers,
    )
    assert put.status_code == 200, put.text
    body, headers = signed_delivery(subscription_canceled(subscription), POLAR_SECRET)
    delivered = await client.post(
        put.json()["webhook_url"].removeprefix(BASE_URL), content=body, headers=headers
    )
    assert delivered.json()["stored"] is True, delivered.text
    return await newest(client, tenant, "Polar")


async def newest(client: AsyncTestClient, tenant: Tenant, source: str) -> dict[str, Any]:
    listed = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback?source={source}", headers=tenant.headers
    )
    item: dict[str, Any] = listed.json()["feedback"][0]
    return item


async def thank(client: AsyncTestClient, tenant: Tenant, item: dict[str, Any], coupon: str, **kw: Any) -> Any:
    return await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/rewards",
        json={"coupon": coupon},
        headers=kw.get("headers", tenant.headers),
    )


async def rewards(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(FeedbackReward)) or 0)


async def test_a_stripe_coupon_is_applied_to_the_subscription_once(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    item = await stripe_item(client, tenant)
    response = await thank(client, tenant, item, "THANKS20")
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["provider"], body["coupon"]) == ("Stripe", "THANKS20") and body["applied_at"].endswith("Z")
    assert fakes.stripe.discounts == {"sub_active": ["THANKS20"]}
    (call,) = fakes.stripe.requests
    assert call["path"] == "/v1/subscriptions/sub_active"
    assert call["headers"]["authorization"] == f"Bearer {STRIPE_KEY}"
    assert call["headers"]["content-type"] == "application/x-www-form-urlencoded"
    assert call["body"] == b"discounts%5B0%5D%5Bcoupon%5D=THANKS20"
    again = await thank(client, tenant, item, "THANKS20")
    assert again.status_code == 409, again.text
    assert len(fakes.stripe.requests) == 1  # the platform is not asked twice
    async with unit_of_work(session_maker) as session:
        entry = await session.scalar(select(AuditEntry).where(AuditEntry.action == "feedback.rewarded"))
    assert entry is not None and entry.details["coupon"] == "THANKS20"
    assert STRIPE_KEY not in json.dumps(entry.details)


async def test_a_polar_discount_is_applied_to_the_subscription(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    item = await polar_item(client, tenant)
    response = await thank(client, tenant, item, POLAR_DISCOUNT)
    assert response.status_code == 201, response.text
    assert response.json()["provider"] == "Polar"
    assert fakes.polar.applied == {"polar-sub-1": POLAR_DISCOUNT}
    (call,) = fakes.polar.requests
    assert (call["method"], call["path"]) == ("PATCH", "/v1/subscriptions/polar-sub-1")
    assert call["headers"]["authorization"] == f"Bearer {POLAR_KEY}"
    assert json.loads(call["body"]) == {"discount_id": POLAR_DISCOUNT}
    assert (await thank(client, tenant, item, POLAR_DISCOUNT)).status_code == 409


async def test_a_refusal_is_502_with_the_platforms_words_and_nothing_is_recorded(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    gone = await stripe_item(client, tenant, "sub_gone")
    unknown_coupon = await thank(client, tenant, gone, "NOPE")
    assert unknown_coupon.status_code == 502
    assert unknown_coupon.json()["details"] == "Stripe answered HTTP 400: No such coupon: 'NOPE'"
    canceled = await thank(client, tenant, gone, "THANKS20")
    assert canceled.status_code == 502
    assert "A canceled subscription can only update" in canceled.json()["details"]
    ended = await polar_item(client, tenant, "polar-ended")
    refused = await thank(client, tenant, ended, POLAR_DISCOUNT)
    assert refused.status_code == 502
    assert refused.json()["details"] == (
        "Polar answered HTTP 403: This subscription is already canceled or will be at the end of the period."
    )
    missing = await thank(client, tenant, ended, "7a7a7a7a-0000-4000-8000-000000000000")
    assert missing.json()["details"] == "Polar answered HTTP 422: Discount does not exist."
    assert await rewards(session_maker) == 0
    async with unit_of_work(session_maker) as session:
        assert (
            await session.scalar(select(AuditEntry).where(AuditEntry.action == "feedback.rewarded")) is None
        )
    fakes.stripe.subscriptions["sub_gone"] = "active"
    assert (await thank(client, tenant, gone, "THANKS20")).status_code == 201  # nothing blocked a retry


async def test_a_wrong_key_is_502_naming_the_refusal(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    item = await stripe_item(client, tenant)
    fakes.stripe.api_key = "rk_test_another"
    try:
        response = await thank(client, tenant, item, "THANKS20")
    finally:
        fakes.stripe.api_key = STRIPE_KEY
    assert response.status_code == 502
    assert response.json()["details"].startswith("Stripe answered HTTP 401: Invalid API Key provided")
    assert STRIPE_KEY not in response.text


async def test_bad_requests_are_4xx_naming_the_field(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    manual = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json={"message": "Love it"}, headers=tenant.headers
    )
    not_billing = await thank(client, tenant, manual.json(), "THANKS20")
    assert not_billing.status_code == 400 and "feedback_id" in not_billing.json()["details"]
    stripe_one = await stripe_item(client, tenant)
    for coupon, field in (("", "coupon"), ("bad coupon!", "coupon"), ("x" * 300, "coupon")):
        response = await thank(client, tenant, stripe_one, coupon)
        assert response.status_code == 400, coupon
        assert field in response.json()["details"], response.json()
    no_coupon = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{stripe_one['id']}/rewards",
        json={},
        headers=tenant.headers,
    )
    assert no_coupon.status_code == 400 and "coupon" in no_coupon.json()["details"]
    polar_one = await polar_item(client, tenant)
    assert "coupon" in (await thank(client, tenant, polar_one, "THANKS20")).json()["details"]
    read = await thank(client, tenant, stripe_one, "THANKS20", headers=tenant.read_headers)
    assert read.status_code == 403
    missing = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/0190a0a0-0000-7000-8000-000000000000/rewards",
        json={"coupon": "THANKS20"},
        headers=tenant.headers,
    )
    assert missing.status_code == 404
    bad_id = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/nope/rewards",
        json={"coupon": "X"},
        headers=tenant.headers,
    )
    assert bad_id.status_code == 400 and "feedback_id" in bad_id.json()["details"]
    assert await rewards(session_maker) == 0 and fakes.stripe.requests == []


async def test_without_a_saved_api_key_it_asks_for_one(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    item = await stripe_item(client, tenant, api_key=None)
    response = await thank(client, tenant, item, "THANKS20")
    assert response.status_code == 400
    assert "api_key" in response.json()["details"]
    assert fakes.stripe.requests == []


async def test_a_subscribed_webhook_receives_feedback_rewarded(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    created = await client.post(
        "/api/v1/webhooks",
        json={"url": "https://hooks.example.org/in", "events": ["feedback.rewarded"]},
        headers=tenant.headers,
    )
    assert created.status_code == 201, created.text
    item = await stripe_item(client, tenant)
    assert (await thank(client, tenant, item, "THANKS20")).status_code == 201
    async with unit_of_work(session_maker) as session:
        (delivery,) = (await session.scalars(select(WebhookDelivery))).all()
    body = json.loads(delivery.body)
    assert delivery.event_type == "feedback.rewarded"
    assert body["data"]["id"] == item["id"]
    assert (body["reward"]["provider"], body["reward"]["coupon"]) == ("Stripe", "THANKS20")


async def test_two_thanks_at_once_apply_one_discount(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    item = await stripe_item(client, tenant)
    answers = await asyncio.gather(
        thank(client, tenant, item, "THANKS20"), thank(client, tenant, item, "THANKS20")
    )
    assert sorted(answer.status_code for answer in answers) == [201, 409]
    assert fakes.stripe.discounts == {"sub_active": ["THANKS20"]} and len(fakes.stripe.requests) == 1
