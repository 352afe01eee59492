"""One call to a billing platform's API (Stripe's, Polar's) on a team's behalf, and how it fails.

The platform's address is the operator's (`HEARKEN_STRIPE_API_URL`, `HEARKEN_POLAR_API_URL`); in
production it must be https and reach only public addresses, as webhook deliveries do. Every failure
becomes a BillingError whose words are shown to people as they are (never the key).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx

from app.config import Settings
from app.outgoing_tls import tls_context
from app.webhooks.urls import NonPublicAddress, check_public

TIMEOUT_SECONDS = 10.0


class BillingError(Exception):
    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


async def billing_call(
    settings: Settings, platform: str, method: str, url: str, **request: Any
) -> httpx.Response:
    """The platform's answer, whatever its status; BillingError when it cannot be asked."""
    parts = urlsplit(url)
    if settings.is_production and parts.scheme != "https":
        raise BillingError(f"{platform}'s API address must be https")
    if not settings.webhooks_reach_private_addresses and parts.hostname is not None:
        try:
            await check_public(parts.hostname, parts.port or 443)
        except NonPublicAddress as exc:
            raise BillingError(
                f"{platform}'s API address: {exc}; Hearken calls only public addresses"
            ) from None
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS, verify=tls_context()) as client:
            return await client.request(method, url, **request)
    except httpx.TimeoutException:
        raise BillingError(f"{platform} did not answer within {TIMEOUT_SECONDS:.0f} seconds") from None
    except httpx.HTTPError:
        raise BillingError(f"{platform} could not be reached") from None
