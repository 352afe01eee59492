"""Single sign-on in Chromium: an owner sets up the organization's provider on the Single sign-on page and
proves the domain (its TXT record answered by a DNS server on 127.0.0.1, tests/dns_server.py), then a
colleague who has no account uses "Sign in with SSO" on the login page, goes through the real
OpenID Connect provider (tests/identity_provider.py) and lands in the console as a member. Each page is
checked with axe-core and photographed at desktop and phone width under test-artifacts/console/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import databases
from tests.browser.accessibility import axe_violations
from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.harness import LiveServer
from tests.browser.test_console_browser import sign_up
from tests.dns_server import DnsServer, running_dns_server
from tests.identity_provider import CLIENT_ID, CLIENT_SECRET, IdentityProvider, running_provider

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser
PHONE = 390


@pytest.fixture(scope="module")
def dns() -> Iterator[DnsServer]:
    with running_dns_server() as started:
        yield started


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path, dns: DnsServer
) -> Iterator[LiveServer]:
    """A server of this module's own, asking the test DNS server for the domain's TXT record."""
    folder = tmp_path_factory.mktemp("sso-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    host, port = dns.address
    server.start({"HEARKEN_DNS_RESOLVER": f"{host}:{port}"})
    yield server
    server.stop()


@pytest.fixture(scope="module")
def provider(live_server: LiveServer) -> Iterator[IdentityProvider]:
    with running_provider(f"{live_server.base_url}/login/sso/callback") as started:
        yield started


def test_an_owner_sets_up_sso_and_a_colleague_signs_in_through_the_provider(
    page: Page, console_server: str, provider: IdentityProvider, dns: DnsServer
) -> None:
    sign_up(page, console_server, org="Single Sign-On Co")
    page.get_by_role("link", name="Single sign-on").click()
    expect(page.get_by_role("heading", name="Single sign-on", level=1)).to_be_visible()
    expect(page.locator("#redirect-uri")).to_have_text(f"{console_server}/login/sso/callback")
    page.get_by_role("button", name="Copy redirect URI").click()
    assert page.evaluate("navigator.clipboard.readText()") == f"{console_server}/login/sso/callback"
    page.get_by_label("Issuer URL").fill(provider.issuer)
    page.get_by_label("Client ID").fill(CLIENT_ID)
    page.get_by_label("Client secret").fill(CLIENT_SECRET)
    page.get_by_label("Allowed email domains").fill("sso-browser.example")
    expect(page.get_by_label("Require SSO")).to_have_accessible_description(
        "Members sign in only through the provider; their passwords stop working. Owners keep their "
        "password, as a way back in when the provider fails."
    )
    assert axe_violations(page) == []
    screenshot(page, "40-sso-settings")
    screenshot(page, "40-sso-settings-phone", width=PHONE)
    page.get_by_role("button", name="Save single sign-on").click()
    expect(page.get_by_role("status")).to_have_text(
        "Single sign-on saved. A new domain signs nobody in until its DNS record is verified."
    )
    expect(page.get_by_label("Client secret")).to_have_value("")
    expect(page.get_by_role("button", name="Turn off single sign-on")).to_be_visible()
    record = page.locator("#record-1")
    expect(record).to_have_text(re.compile(r"^hearken-verification=[0-9a-f]{32}$"))
    expect(page.get_by_role("button", name="Verify")).to_have_accessible_description("sso-browser.example")
    assert axe_violations(page) == []
    screenshot(page, "41-sso-saved")
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("alert")).to_have_text(
        f"No TXT record {record.inner_text()} at sso-browser.example yet"
    )
    expect(page.get_by_role("button", name="Verify")).to_have_accessible_description(
        f"sso-browser.example No TXT record {record.inner_text()} at sso-browser.example yet"
    )
    assert axe_violations(page) == []
    screenshot(page, "41-sso-domain-not-seen")
    dns.publish("sso-browser.example", record.inner_text())
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("status")).to_have_text(
        "Domain verified: its addresses now sign in through your provider."
    )
    expect(page.get_by_text("proven", exact=True)).to_be_visible()
    screenshot(page, "41-sso-domain-proven")

    page.get_by_role("button", name="Log out").click()
    assert axe_violations(page) == []
    screenshot(page, "42-login-with-sso-link")
    page.get_by_role("link", name="Sign in with SSO").click()
    expect(page.get_by_role("heading", name="Sign in with SSO")).to_be_visible()
    page.get_by_label("Email").fill("nobody@elsewhere.example")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_label("Email")).to_have_accessible_description(
        "No organization signs in with single sign-on at this address's domain. Log in with your password."
    )
    assert axe_violations(page) == []
    screenshot(page, "43-sso-login-unknown-domain")
    screenshot(page, "43-sso-login-unknown-domain-phone", width=PHONE)
    page.get_by_label("Email").fill("pat@sso-browser.example")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    expect(page.get_by_text("pat@sso-browser.example · member")).to_be_visible()
    expect(page.get_by_text("Single Sign-On Co")).to_be_visible()
    screenshot(page, "44-signed-in-through-sso-phone", width=PHONE)
