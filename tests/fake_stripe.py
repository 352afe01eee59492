"""A local fake of the part of Stripe's API that thank-you discounts use, on 127.0.0.1 in a thread,
following Stripe's published API reference.

`POST /v1/subscriptions/{id}` form-encoded, with `Authorization: Bearer <key>` and `discounts[0][coupon]`:
answers the subscription with its `discounts`. As Stripe does: a wrong key is 401, an unknown
subscription 404 (`resource_missing`), an unknown coupon 400 (`resource_missing`, param
`discounts[0][coupon]`), a canceled subscription 400; errors are `{"error": {"type", "message", "code"?,
"param"?}}`. A repeated `Idempotency-Key` gets the first answer again without applying anything.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from tests.json_fakes import serve_json


@dataclass
class FakeStripe:
    api_key: str
    coupons: set[str] = field(default_factory=set)
    subscriptions: dict[str, str] = field(default_factory=dict)
    """Subscription id → status ("active", "canceled")."""
    discounts: dict[str, list[str]] = field(default_factory=dict)
    """Subscription id → the coupons applied, in order."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    answered: dict[str, tuple[int, Any]] = field(default_factory=dict)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        with self.lock:
            self.requests.append({"method": method, "path": path, "headers": headers, "body": body})
            key = headers.get("idempotency-key")
            if key and key in self.answered:
                return self.answered[key]
            answer = self._answer(method, path, headers, body)
            if key:
                self.answered[key] = answer
            return answer

    def _answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        if headers.get("authorization") != f"Bearer {self.api_key}":
            return 401, _error("Invalid API Key provided: rk_test_****")
        prefix = "/v1/subscriptions/"
        if method != "POST" or not path.startswith(prefix):
            return 404, _error(f"Unrecognized request URL ({method}: {path}).")
        if not headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
            return 400, _error("Invalid request: the body must be form-encoded")
        subscription = path.removeprefix(prefix)
        if subscription not in self.subscriptions:
            return 404, _error(f"No such subscription: '{subscription}'", code="resource_missing", param="id")
        form = parse_qs(body.decode())
        coupon = (form.get("discounts[0][coupon]") or [""])[0]
        if coupon not in self.coupons:
            return 400, _error(
                f"No such coupon: '{coupon}'", code="resource_missing", param="discounts[0][coupon]"
            )
        if self.subscriptions[subscription] == "canceled":
            return 400, _error(
                "A canceled subscription can only update its cancellation_details and metadata."
            )
        self.discounts.setdefault(subscription, []).append(coupon)
        return 200, {
            "id": subscription,
            "object": "subscription",
            "status": self.subscriptions[subscription],
            "discounts": [f"di_{n}" for n, _ in enumerate(self.discounts[subscription])],
        }


def _error(message: str, **fields: str) -> dict[str, Any]:
    return {"error": {"type": "invalid_request_error", "message": message, **fields}}


@contextmanager
def running(fake: FakeStripe) -> Iterator[FakeStripe]:
    with serve_json(fake.answer) as url:
        fake.url = url
        yield fake
