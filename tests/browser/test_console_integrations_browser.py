"""The Integrations tab in Chromium: Stripe's signing secret saved and its webhook URL copied, Mintlify
saved and synced (the live server cannot reach Mintlify, so the failure shows in words), both removed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.test_console_browser import sign_up

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser


def test_integrations_tab(page: Page, console_server: str) -> None:
    sign_up(page, console_server, org="Integrations Co")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Billing docs")
    page.get_by_role("button", name="Create project").click()
    page.get_by_role("link", name="Integrations", exact=True).click()
    expect(page.get_by_role("heading", name="Integrations", level=1)).to_be_visible()

    page.get_by_label("Stripe signing secret").fill("not a secret")
    page.get_by_role("button", name="Save Stripe").click()
    expect(page.locator("#e-signing_secret")).to_contain_text("whsec_")
    page.get_by_label("Stripe signing secret").fill("whsec_browser0123456789")
    page.get_by_role("button", name="Save Stripe").click()
    url = page.locator("#stripe-webhook-url")
    expect(url).to_contain_text("/api/v1/integrations/stripe/")
    page.get_by_role("button", name="Copy webhook URL").click()
    assert page.evaluate("navigator.clipboard.readText()") == url.inner_text()
    assert "whsec_browser" not in page.content()

    page.get_by_label("Mintlify project id").fill("proj_docs")
    page.get_by_label("Mintlify API key").fill("mint_browser_key")
    page.get_by_role("button", name="Save Mintlify").click()
    page.get_by_role("button", name="Sync now").click()
    expect(page.get_by_role("alert")).to_contain_text(
        re.compile("Mintlify (could not be reached|did not answer)")
    )
    assert "mint_browser_key" not in page.content()
    screenshot(page, "10-integrations")
    screenshot(page, "10-integrations-phone", width=390)

    page.get_by_role("button", name="Remove Stripe").click()
    expect(page.locator("#stripe-webhook-url")).to_have_count(0)
    page.get_by_role("button", name="Remove Mintlify").click()
    expect(page.get_by_role("button", name="Sync now")).to_have_count(0)
