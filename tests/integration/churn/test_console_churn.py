"""The console's Churn tab and "Thank with a discount" on a cancellation's feedback page, through the same
report and discounts as the API (the discount applied by the local Stripe fake)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.config import Settings
from app.db.models import User
from tests import fake_stripe
from tests.console_helpers import Console
from tests.factories import Tenant
from tests.fake_stripe import FakeStripe
from tests.integration.churn.billing_events import connect, polar_cancellation, stripe_cancellation

STRIPE_KEY = "rk_test_console0123456789"


@pytest.fixture(scope="module")
def stripe_fake() -> Iterator[FakeStripe]:
    with fake_stripe.running(FakeStripe(api_key=STRIPE_KEY)) as fake:
        yield fake


@pytest.fixture
def settings(database_url: str, stripe_fake: FakeStripe) -> Settings:
    stripe_fake.coupons, stripe_fake.subscriptions = {"THANKS20"}, {"sub_1": "active"}
    stripe_fake.discounts.clear()
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        stripe_api_url=stripe_fake.url,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


async def test_the_churn_tab_shows_cancellations_and_a_customer_is_thanked_once(
    console: Console, owner: User, tenant: Tenant, stripe_fake: FakeStripe
) -> None:
    stripe_url, polar_url = await connect(console.client, tenant, stripe_key=STRIPE_KEY)
    await stripe_cancellation(
        console.client, stripe_url, "evt_1", "sub_1", feedback="too_expensive", comment="Pricey"
    )
    await polar_cancellation(console.client, polar_url, "p-1", reason="missing_features", comment="No SSO")
    await console.login(owner.email)
    page = await console.get(f"/projects/{tenant.project_id}/churn")
    assert page.status_code == 200
    assert 'aria-current="page">Churn<' in page.text
    assert 'id="churn-total">2<' in page.text
    assert "Too expensive" in page.text and "Missing features" in page.text
    assert "Pricey" in page.text and "No SSO" in page.text
    assert f"/projects/{tenant.project_id}/churn/export?months=12&amp;format=csv" in page.text
    export = await console.get(f"/projects/{tenant.project_id}/churn/export?months=3&format=csv")
    assert export.status_code == 200 and export.text.count("\n") == 3
    listed = await console.client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback?source=Stripe", headers=tenant.headers
    )
    item_url = f"/projects/{tenant.project_id}/feedback/{listed.json()['feedback'][0]['id']}"
    detail = await console.get(item_url)
    assert "Thank with a discount" in detail.text and "Stripe coupon id" in detail.text
    refused = await console.post(item_url + "/rewards", {"coupon": "NOPE"})
    assert refused.status_code == 502 and "No such coupon: &#39;NOPE&#39;" in refused.text
    applied = await console.post(item_url + "/rewards", {"coupon": "THANKS20"})
    assert applied.status_code == 200, applied.text
    assert 'id="reward-applied"' in applied.text and "THANKS20" in applied.text
    assert "Thank with a discount</button>" not in applied.text
    assert stripe_fake.discounts == {"sub_1": ["THANKS20"]}
    again = await console.post(item_url + "/rewards", {"coupon": "THANKS20"})
    assert again.status_code == 409 and stripe_fake.discounts == {"sub_1": ["THANKS20"]}


async def test_bad_months_are_400(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    response = await console.get(f"/projects/{tenant.project_id}/churn?months=7")
    assert response.status_code == 400


async def test_polar_and_the_api_keys_are_saved_on_the_integrations_tab(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    base = f"/projects/{tenant.project_id}/integrations"
    bad = await console.post(base + "/polar", {"polar_webhook_secret": "has spaces in it"})
    assert bad.status_code == 400 and 'id="e-polar_webhook_secret"' in bad.text
    short_key = await console.post(
        base + "/polar", {"polar_webhook_secret": "polar_whs_console0123", "polar_api_key": "short"}
    )
    assert short_key.status_code == 400 and 'id="e-polar_api_key"' in short_key.text
    saved = await console.post(
        base + "/polar",
        {"polar_webhook_secret": "polar_whs_console0123", "polar_api_key": "polar_oat_console0123"},
    )
    assert saved.status_code == 200 and 'id="polar-webhook-url"' in saved.text
    assert "polar_whs_console0123" not in saved.text and "polar_oat_console0123" not in saved.text
    stripe_saved = await console.post(
        base + "/stripe",
        {"signing_secret": "whsec_console0123456789", "stripe_api_key": "rk_test_console0123"},
    )
    assert stripe_saved.status_code == 200 and "rk_test_console0123" not in stripe_saved.text
    for name in ("stripe", "polar"):
        api = await console.client.get(
            f"/api/v1/projects/{tenant.project_id}/integrations/{name}", headers=tenant.headers
        )
        assert api.json()["api_key_saved"] is True, name
    removed = await console.post(base + "/polar/remove")
    assert 'id="polar-webhook-url"' not in removed.text
