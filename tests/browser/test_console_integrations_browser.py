"""The Integrations tab in Chromium: Stripe's signing secret saved and its webhook URL copied, Mintlify
saved and synced (the live server cannot reach Mintlify, so the failure shows in words), both removed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.test_console_browser import sign_up
from tests.fake_jira import FakeJira, running

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


def test_jira_is_set_up_in_its_tracker_section(page: Page, console_server: str) -> None:
    """The issue trackers' one section, as Jira's: saved against a local fake Jira, the webhook URL and
    the secret shown once, the token never."""
    with running(FakeJira(email="triage@acme.example", api_token="ATATT-browser-token")) as jira:
        sign_up(page, console_server, org="Trackers Co")
        page.get_by_role("link", name="New project").first.click()
        page.get_by_label("Name").fill("Support")
        page.get_by_role("button", name="Create project").click()
        page.get_by_role("link", name="Integrations", exact=True).click()
        page.get_by_label("Jira site").fill(jira.url)
        page.get_by_label("Jira project key").fill("ENG")
        page.get_by_label("Atlassian account email").fill("triage@acme.example")
        page.get_by_label("Jira API token").fill("wrong")
        page.get_by_role("button", name="Save Jira").click()
        expect(page.locator("#e-jira_api_token")).to_contain_text("the email and API token were refused")
        page.get_by_label("Jira API token").fill("ATATT-browser-token")
        page.get_by_role("button", name="Save Jira").click()
        expect(page.locator("#jira-webhook-url")).to_contain_text("/api/v1/integrations/jira/")
        expect(page.locator("#jira-webhook-secret")).to_have_text(re.compile("^[0-9a-f]{64}$"))
        assert "ATATT-browser-token" not in page.content()
        screenshot(page, "10-integrations-jira")
        page.reload()
        expect(page.locator("#jira-webhook-secret")).to_have_count(0)
        page.get_by_role("button", name="Remove Jira").click()
        expect(page.locator("#jira-webhook-url")).to_have_count(0)
