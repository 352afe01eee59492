"""Applies a coupon to a Stripe subscription, as Stripe's API documents it.

`POST {api}/v1/subscriptions/{id}` form-encoded with `discounts[0][coupon]=<coupon id>` and
`Authorization: Bearer <restricted key>` (Subscriptions: write). Setting `discounts` replaces the
subscription's discounts, so a call repeated after a lost answer leaves the same one discount. Stripe
refuses with `{"error": {"message", "type", "code", "param"}}`, whose message is passed on.
"""

from __future__ import annotations

from urllib.parse import quote

import msgspec

from app.config import Settings
from app.integrations.billing_calls import BillingError, billing_call


async def apply_stripe_coupon(settings: Settings, api_key: str, subscription_id: str, coupon: str) -> None:
    response = await billing_call(
        settings,
        "Stripe",
        "POST",
        f"{settings.stripe_api_url}/v1/subscriptions/{quote(subscription_id, safe='')}",
        data={"discounts[0][coupon]": coupon},
        headers={"Authorization": f"Bearer {api_key}"},
    )
    if response.status_code != 200:
        raise BillingError(f"Stripe answered HTTP {response.status_code}{_message(response.content)}")


def _message(content: bytes) -> str:
    try:
        answer = msgspec.json.decode(content)
    except (msgspec.DecodeError, RecursionError):
        return ""
    error = answer.get("error") if isinstance(answer, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return f": {message[:300]}" if isinstance(message, str) and message.strip() else ""
