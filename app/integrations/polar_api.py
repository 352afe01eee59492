"""Applies a discount to a Polar subscription, as Polar's API documents it.

`PATCH {api}/v1/subscriptions/{id}` with JSON `{"discount_id": "<discount id>"}` and `Authorization:
Bearer <organization access token>` (scope subscriptions:write); Polar applies it from the next billing
cycle. Polar refuses with `{"error", "detail"}` (the detail a sentence, or FastAPI's list of
`{"loc", "msg"}` for a body it cannot take), which is passed on.
"""

from __future__ import annotations

from urllib.parse import quote

import msgspec

from app.config import Settings
from app.integrations.billing_calls import BillingError, billing_call


async def apply_polar_discount(
    settings: Settings, api_key: str, subscription_id: str, discount_id: str
) -> None:
    response = await billing_call(
        settings,
        "Polar",
        "PATCH",
        f"{settings.polar_api_url}/v1/subscriptions/{quote(subscription_id, safe='')}",
        json={"discount_id": discount_id},
        headers={"Authorization": f"Bearer {api_key}", "Accept": "application/json"},
    )
    if response.status_code != 200:
        raise BillingError(f"Polar answered HTTP {response.status_code}{_detail(response.content)}")


def _detail(content: bytes) -> str:
    try:
        answer = msgspec.json.decode(content)
    except (msgspec.DecodeError, RecursionError):
        return ""
    detail = answer.get("detail") if isinstance(answer, dict) else None
    if isinstance(detail, list) and detail and isinstance(detail[0], dict):
        detail = detail[0].get("msg")
    return f": {detail[:300]}" if isinstance(detail, str) and detail.strip() else ""
