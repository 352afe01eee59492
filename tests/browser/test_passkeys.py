"""Second factors in Chromium: an authenticator app set up from the key on the page (codes computed with
pyotp), and passkeys made and used by Chromium's virtual authenticator (the DevTools protocol's WebAuthn
domain: CTAP2, built in, resident keys, user verification), first as the second step after the password,
then to sign in without one. The server's public address is http://localhost:PORT: a passkey's relying
party is a host name (an IP address cannot be one). Each page is checked with axe-core; screenshots at
desktop and phone width go to test-artifacts/console/."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pyotp
import pytest
from playwright.sync_api import Page, expect

from tests import databases
from tests.browser.accessibility import axe_violations
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import LiveServer
from tests.browser.test_console_browser import sign_up

__all__ = ["page"]

pytestmark = pytest.mark.browser
PHONE = 390
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def localhost_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("passkey-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    base_url = f"http://localhost:{server.port}"
    server.start({"HEARKEN_BASE_URL": base_url})
    yield base_url
    server.stop()


def virtual_authenticator(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
    }
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})


def log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out", exact=True).click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()


def log_in(page: Page, email: str) -> None:
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_authenticator_app_then_passkeys_as_second_step_and_alone(page: Page, localhost_server: str) -> None:
    base_url = localhost_server
    virtual_authenticator(page)
    email = sign_up(page, base_url, org="Passkey Co")

    page.get_by_role("link", name="Members").click()
    page.get_by_label("Require two-factor authentication").check()
    screenshot(page, "40-members-two-factor")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Save sign-in rules").click()
    expect(page).to_have_url(re.compile(r"/account\?done=required$"))  # the owner has no factor yet either
    page.get_by_role("link", name="Projects").click()
    expect(page).to_have_url(re.compile(r"/account\?done=required$"))
    expect(page.get_by_text("Your organization requires two-factor authentication")).to_be_visible()
    screenshot(page, "41-account-two-factor")
    screenshot(page, "41-account-two-factor-phone", width=PHONE)
    assert axe_violations(page) == []

    authenticator = page.get_by_role("region", name="Authenticator app")
    authenticator.get_by_label("Your password").fill(PASSWORD)
    authenticator.get_by_role("button", name="Set up authenticator app").click()
    qr = page.get_by_role("img", name=re.compile("QR code"))
    expect(qr).to_be_visible()
    assert qr.evaluate("image => image.complete && image.naturalWidth > 100")
    screenshot(page, "42-authenticator-setup")
    screenshot(page, "42-authenticator-setup-phone", width=PHONE)
    assert axe_violations(page) == []
    totp = pyotp.TOTP(page.locator("#totp-key").inner_text().replace(" ", ""))
    page.get_by_label("Code from the app").fill(totp.now())
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_role("heading", name="Recovery codes")).to_be_visible()
    expect(page.locator("#recovery-codes li")).to_have_count(10)
    screenshot(page, "43-recovery-codes-phone", width=PHONE)
    assert axe_violations(page) == []
    page.get_by_role("link", name="I have saved them").click()

    passkeys = page.get_by_role("region", name="Passkeys")
    passkeys.get_by_label("Passkey name").fill("Test laptop")
    passkeys.get_by_label("Your password").fill(PASSWORD)
    passkeys.get_by_role("button", name="Add a passkey").click()
    expect(page.get_by_text("Your passkey was added.")).to_be_visible()
    expect(passkeys.get_by_role("listitem")).to_contain_text("Test laptop")
    recovery = page.get_by_role("region", name="Recovery codes")
    expect(recovery).to_contain_text("10 of 10 recovery codes left")
    screenshot(page, "44-account-factors")
    screenshot(page, "44-account-factors-phone", width=PHONE)
    assert axe_violations(page) == []

    log_out(page)
    log_in(page, email)
    expect(page.get_by_role("heading", name="One more step")).to_be_visible()
    screenshot(page, "45-second-step")
    screenshot(page, "45-second-step-phone", width=PHONE)
    assert axe_violations(page) == []
    page.get_by_role("button", name="Use a passkey").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()

    log_out(page)
    screenshot(page, "46-login-passkey-phone", width=PHONE)
    assert axe_violations(page) == []
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    expect(page.get_by_text(email)).to_be_visible()

    log_out(page)  # and once more with the app's code, a step later than the one used at setup
    log_in(page, email)
    page.get_by_label("Authentication code").fill(totp.at(time.time() + totp.interval))
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
