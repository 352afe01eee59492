"""The Webhooks page in Chromium, found by the names a person reads: add an endpoint, copy its secret
(shown once), send a test event that a real receiver gets, disable, enable and delete it."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect
from standardwebhooks import Webhook

from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.test_console_browser import sign_up
from tests.receivers import receiver

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser


def test_add_an_endpoint_send_a_test_event_disable_enable_delete(page: Page, console_server: str) -> None:
    sign_up(page, console_server, org="Hook Docs")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Webhooks").click()
    expect(page.get_by_role("heading", name="Webhooks", level=1)).to_be_visible()
    with receiver() as hook:
        page.get_by_label("Endpoint URL").fill(hook.url)
        page.get_by_label("Description").fill("Support inbox")
        page.get_by_label("feedback.created").check()
        page.get_by_label("webhook.test").check()
        page.get_by_label("Format").select_option(label="Standard")
        screenshot(page, "20-webhooks-form")
        page.get_by_role("button", name="Add endpoint").click()

        secret = page.locator("#new-secret")
        expect(secret).to_have_text(re.compile(r"^whsec_[A-Za-z0-9+/]{43}=$"))
        expect(page.get_by_role("button", name="Copy secret")).to_be_visible()
        signing_secret = secret.inner_text()
        endpoint = page.get_by_role("region", name=hook.url)
        endpoint.get_by_role("button", name="Send test event").click()
        deadline = time.monotonic() + 15
        while not hook.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (
            Webhook(signing_secret).verify(hook.requests[0].body, hook.requests[0].headers)["type"]
            == "webhook.test"
        )

        for _ in range(100):
            page.reload()
            if page.get_by_role("cell", name="succeeded").count():
                break
            time.sleep(0.1)
        endpoint = page.get_by_role("region", name=hook.url)
        row = endpoint.get_by_role("row").filter(has_text="webhook.test")
        expect(row).to_contain_text("succeeded")
        expect(row.get_by_role("cell", name="204")).to_be_visible()
        expect(page.locator("#new-secret")).to_have_count(0)
        screenshot(page, "21-webhooks-delivered")

        endpoint.get_by_role("button", name="Disable").click()
        expect(endpoint.get_by_role("button", name="Enable")).to_be_visible()
        expect(endpoint).to_contain_text("disabled")
        endpoint.get_by_role("button", name="Enable").click()
        expect(endpoint.get_by_role("button", name="Disable")).to_be_visible()
        screenshot(page, "22-webhooks-phone", width=390)
        endpoint.get_by_role("button", name="Delete").click()
        expect(page.get_by_text("No endpoints yet.")).to_be_visible()
