"""The Churn tab in Chromium: Stripe and Polar connected on the Integrations tab (with their API keys),
cancellations delivered signed as each platform signs them, the tab's chart, reasons and newest, and a
customer thanked with a discount through the local Stripe fake."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import stripe
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests import databases, fake_polar, fake_stripe
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import LiveServer
from tests.browser.test_console_browser import sign_up
from tests.fake_polar import FakePolar, signed_delivery, subscription_canceled
from tests.fake_stripe import FakeStripe
from tests.local_http import local_http

__all__ = ["page"]

pytestmark = pytest.mark.browser

STRIPE_SECRET = "whsec_browser0123456789abcdef"
STRIPE_KEY = "rk_test_browser0123456789"
POLAR_SECRET = "polar_whs_browser0123456789abcdef"
POLAR_KEY = "polar_oat_browser0123456789"


@pytest.fixture(scope="module")
def churn_server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[tuple[LiveServer, FakeStripe]]:
    """A server of its own, whose Stripe and Polar APIs are the local fakes."""
    with (
        fake_stripe.running(FakeStripe(api_key=STRIPE_KEY, coupons={"THANKS20"})) as stripe_fake,
        fake_polar.running(FakePolar(api_key=POLAR_KEY)) as polar_fake,
    ):
        folder = tmp_path_factory.mktemp("churn-server")
        server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
        server.start({"HEARKEN_STRIPE_API_URL": stripe_fake.url, "HEARKEN_POLAR_API_URL": polar_fake.url})
        try:
            yield server, stripe_fake
        finally:
            server.stop()


def deliver_stripe(url: str, number: int, feedback: str, comment: str | None) -> None:
    event = {
        "id": f"evt_{number}",
        "type": "customer.subscription.deleted",
        "data": {
            "object": {
                "id": f"sub_{number}",
                "customer": f"cus_{number}",
                "cancellation_details": {"comment": comment, "feedback": feedback},
            }
        },
    }
    payload = json.dumps(event)
    header = stripe.WebhookSignature.generate_signature_header(payload, STRIPE_SECRET)
    assert local_http.post(url, content=payload, headers={"Stripe-Signature": header}).json()["stored"]


def deliver_polar(url: str, number: int, reason: str | None, comment: str | None) -> None:
    body, headers = signed_delivery(
        subscription_canceled(f"polar-{number}", reason=reason, comment=comment), POLAR_SECRET
    )
    assert local_http.post(url, content=body, headers=headers).json()["stored"]


def spread_over_months(server: LiveServer) -> None:
    """Move the cancellations into the last months, so the chart has a shape."""
    from app.db.models import FeedbackItem

    async def work(maker: async_sessionmaker[AsyncSession]) -> None:
        async with maker() as session:
            items = (await session.scalars(select(FeedbackItem).order_by(FeedbackItem.created_at))).all()
            now = datetime.now(UTC)
            for index, item in enumerate(items[:-3]):
                back = index % 5 + 1
                month = (now.year * 12 + now.month - 1) - back
                item.created_at = datetime(month // 12, month % 12 + 1, 10 + index, tzinfo=UTC)
            await session.commit()

    server._arrange(work)


def test_churn_tab_and_thank_with_a_discount(page: Page, churn_server: tuple[LiveServer, FakeStripe]) -> None:
    server, stripe_fake = churn_server
    base = server.base_url
    sign_up(page, base, org="Churn Co")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Billing")
    page.get_by_role("button", name="Create project").click()
    page.get_by_role("link", name="Integrations", exact=True).click()
    page.get_by_label("Stripe signing secret").fill(STRIPE_SECRET)
    page.get_by_label("Stripe restricted API key (optional)").fill(STRIPE_KEY)
    page.get_by_role("button", name="Save Stripe").click()
    stripe_url = page.locator("#stripe-webhook-url").inner_text().strip()
    page.get_by_label("Polar webhook secret").fill(POLAR_SECRET)
    page.get_by_label("Polar access token (optional)").fill(POLAR_KEY)
    page.get_by_role("button", name="Save Polar").click()
    polar_url = page.locator("#polar-webhook-url").inner_text().strip()
    for secret in (STRIPE_SECRET, STRIPE_KEY, POLAR_SECRET, POLAR_KEY):
        assert secret not in page.content()

    stripe_fake.subscriptions.update({f"sub_{n}": "active" for n in range(1, 7)})
    reasons = [
        "too_expensive",
        "missing_features",
        "unused",
        "too_expensive",
        "switched_service",
        "too_complex",
    ]
    comments = [
        "Too pricey for a team of two",
        "No SSO yet",
        None,
        "Budget cuts this quarter",
        "Moved to a rival",
        None,
    ]
    for number, (reason, comment) in enumerate(zip(reasons, comments, strict=True), start=1):
        deliver_stripe(stripe_url, number, reason, comment)
    deliver_polar(polar_url, 1, "too_expensive", "We only needed it for one launch")
    deliver_polar(polar_url, 2, None, "Support took a week to answer")
    deliver_polar(polar_url, 3, "low_quality", None)
    spread_over_months(server)

    page.get_by_role("link", name="Churn", exact=True).click()
    expect(page.get_by_role("heading", name="Churn", level=1)).to_be_visible()
    expect(page.locator("#churn-total")).to_have_text("9")
    expect(page.locator("#churn-reasons")).to_contain_text("Too expensive")
    expect(page.locator("#churn-recent")).to_contain_text("Support took a week to answer")
    expect(page.locator("svg[aria-label^='Cancellations per month']")).to_be_visible()
    screenshot(page, "30-churn")
    screenshot(page, "30-churn-phone", width=390)

    page.locator("#churn-recent").get_by_role("link", name="Too pricey for a team of two").click()
    page.get_by_label("Stripe coupon id").fill("NOPE")
    page.get_by_role("button", name="Thank with a discount").click()
    expect(page.locator("#reward-error")).to_contain_text("No such coupon: 'NOPE'")
    page.get_by_label("Stripe coupon id").fill("THANKS20")
    page.get_by_role("button", name="Thank with a discount").click()
    expect(page.locator("#reward-applied")).to_contain_text("THANKS20")
    expect(page.get_by_role("button", name="Thank with a discount")).to_have_count(0)
    assert stripe_fake.discounts == {"sub_1": ["THANKS20"]}
    screenshot(page, "31-thanked")
