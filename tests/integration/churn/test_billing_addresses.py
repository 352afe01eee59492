"""The billing platforms' API addresses in production: https and public only, as webhook URLs; refused
before any request leaves, in words the 502 shows."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.integrations.billing_calls import BillingError
from app.integrations.polar_api import apply_polar_discount
from app.integrations.stripe_api import apply_stripe_coupon
from tests.fake_stripe import FakeStripe, running


def production(**urls: str) -> Settings:
    return Settings(env="production", secret_key="x" * 40, database_url="sqlite+aiosqlite://", **urls)


async def test_production_refuses_plain_http_and_private_addresses() -> None:
    with running(FakeStripe(api_key="rk_test_x", coupons={"C"}, subscriptions={"sub_1": "active"})) as fake:
        with pytest.raises(BillingError, match="Stripe's API address must be https"):
            await apply_stripe_coupon(production(stripe_api_url=fake.url), "rk_test_x", "sub_1", "C")
        private = fake.url.replace("http://", "https://")
        with pytest.raises(BillingError, match="Hearken calls only public addresses"):
            await apply_stripe_coupon(production(stripe_api_url=private), "rk_test_x", "sub_1", "C")
        with pytest.raises(BillingError, match="Hearken calls only public addresses"):
            await apply_polar_discount(production(polar_api_url="https://10.0.0.7"), "k" * 10, "s", "d")
        assert fake.requests == []
        allowed = Settings(
            env="production",
            secret_key="x" * 40,
            database_url="sqlite+aiosqlite://",
            webhook_allow_private=True,
            stripe_api_url=private,
        )
        with pytest.raises(BillingError, match="could not be reached"):  # allowed, but the fake speaks http
            await apply_stripe_coupon(allowed, "rk_test_x", "sub_1", "C")
