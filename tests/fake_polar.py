"""A local fake of Polar for cancellation feedback and thank-you discounts, following Polar's published
API and webhook documentation.

Webhooks: `signed_delivery` signs a body as Polar does, by the Standard Webhooks convention (headers
`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
"{id}.{timestamp}.{body}">`), keyed by the secret Polar shows for the endpoint taken as UTF-8 bytes,
written here on the standard library so the receiver's verifier is checked against an independent signer.
`subscription_canceled` builds the `subscription.canceled` payload.

API: `PATCH /v1/subscriptions/{id}` with JSON `{"discount_id"}` and `Authorization: Bearer <organization
access token>` answers the subscription. As Polar does: a wrong token is 401, an unknown subscription
404 (`ResourceNotFound`), an unknown discount 422 (FastAPI's `detail` list), an ended subscription 403
(`AlreadyCanceledSubscription`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.json_fakes import serve_json


def signed_delivery(
    event: dict[str, Any] | str, secret: str, *, webhook_id: str | None = None, at: int | None = None
) -> tuple[str, dict[str, str]]:
    body = event if isinstance(event, str) else json.dumps(event)
    webhook_id = webhook_id or f"msg_{uuid.uuid4().hex}"
    timestamp = str(int(time.time()) if at is None else at)
    mac = hmac.new(secret.encode(), f"{webhook_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return body, {
        "webhook-id": webhook_id,
        "webhook-timestamp": timestamp,
        "webhook-signature": "v1," + base64.b64encode(mac).decode(),
        "content-type": "application/json",
    }


def subscription_canceled(
    subscription_id: str = "c2a0d6f0-5a0a-4b7e-9a44-3f1f1f1f1f1f",
    *,
    reason: str | None = "too_expensive",
    comment: str | None = "We only needed it for one launch",
    customer_id: str = "9b7e0c4e-1d7e-4a44-8a0f-2d2d2d2d2d2d",
) -> dict[str, Any]:
    return {
        "type": "subscription.canceled",
        "timestamp": "2026-11-29T08:00:00Z",
        "data": {
            "id": subscription_id,
            "status": "active",
            "cancel_at_period_end": True,
            "customer_id": customer_id,
            "customer": {"id": customer_id, "email": "ada@customer.example"},
            "discount_id": None,
            "customer_cancellation_reason": reason,
            "customer_cancellation_comment": comment,
        },
    }


@dataclass
class FakePolar:
    api_key: str
    discounts: set[str] = field(default_factory=set)
    subscriptions: dict[str, str] = field(default_factory=dict)
    """Subscription id → status ("active", "canceled" once ended)."""
    applied: dict[str, str] = field(default_factory=dict)
    """Subscription id → the discount applied."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        with self.lock:
            self.requests.append({"method": method, "path": path, "headers": headers, "body": body})
            return self._answer(method, path, headers, body)

    def _answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        if headers.get("authorization") != f"Bearer {self.api_key}":
            return 401, {"error": "invalid_token", "detail": "The access token is invalid or expired."}
        prefix = "/v1/subscriptions/"
        if method != "PATCH" or not path.startswith(prefix):
            return 405, {"detail": "Method Not Allowed"}
        subscription = path.removeprefix(prefix)
        if subscription not in self.subscriptions:
            return 404, {"error": "ResourceNotFound", "detail": "Not found"}
        discount = json.loads(body).get("discount_id")
        if discount not in self.discounts:
            return 422, {
                "detail": [
                    {"loc": ["body", "discount_id"], "msg": "Discount does not exist.", "type": "value_error"}
                ]
            }
        if self.subscriptions[subscription] == "canceled":
            return 403, {
                "error": "AlreadyCanceledSubscription",
                "detail": "This subscription is already canceled or will be at the end of the period.",
            }
        self.applied[subscription] = discount
        return 200, {"id": subscription, "status": self.subscriptions[subscription], "discount_id": discount}


@contextmanager
def running(fake: FakePolar) -> Iterator[FakePolar]:
    with serve_json(fake.answer) as url:
        fake.url = url
        yield fake
