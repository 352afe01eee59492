"""Cancellations delivered to a project as Stripe and Polar send them (signed with the `stripe` package's
signer and tests/fake_polar.py), for the churn tests and the console's Churn tab."""

from __future__ import annotations

import json
from typing import Any

import stripe
from litestar.testing import AsyncTestClient

from tests.factories import Tenant
from tests.fake_polar import signed_delivery, subscription_canceled

STRIPE_SECRET = "whsec_test0123456789abcdefghijklmnop"
POLAR_SECRET = "polar_whs_0123456789abcdefghijklmnopqrstuvwxyz"
BASE_URL = "http://127.0.0.1:8000"


async def connect(client: AsyncTestClient, tenant: Tenant, **keys: str) -> tuple[str, str]:
    """Enable both integrations (`stripe_key`, `polar_key`: their API keys); their receivers' paths."""
    urls = []
    for name, body in (
        ("stripe", {"signing_secret": STRIPE_SECRET, "api_key": keys.get("stripe_key")}),
        ("polar", {"webhook_secret": POLAR_SECRET, "api_key": keys.get("polar_key")}),
    ):
        kept = {field: value for field, value in body.items() if value}
        put = await client.put(
            f"/api/v1/projects/{tenant.project_id}/integrations/{name}", json=kept, headers=tenant.headers
        )
        assert put.status_code == 200, put.text
        urls.append(put.json()["webhook_url"].removeprefix(BASE_URL))
    return urls[0], urls[1]


async def stripe_cancellation(
    client: AsyncTestClient, url: str, event_id: str, subscription: str, *, feedback: str, comment: str | None
) -> None:
    event = {
        "id": event_id,
        "type": "customer.subscription.deleted",
        "data": {
            "object": {
                "id": subscription,
                "customer": f"cus_{event_id}",
                "cancellation_details": {"comment": comment, "feedback": feedback},
            }
        },
    }
    payload = json.dumps(event)
    header = stripe.WebhookSignature.generate_signature_header(payload, STRIPE_SECRET)
    response = await client.post(url, content=payload, headers={"Stripe-Signature": header})
    assert response.json()["stored"] is True, response.text


async def polar_cancellation(client: AsyncTestClient, url: str, subscription: str, **fields: Any) -> None:
    body, headers = signed_delivery(subscription_canceled(subscription, **fields), POLAR_SECRET)
    response = await client.post(url, content=body, headers=headers)
    assert response.json()["stored"] is True, response.text
