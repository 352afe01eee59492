"""Links the console mails, followed in Chromium: the mail is sent by a real server process to a real SMTP
server (aiosmtpd), parsed back, and its link opened in the browser. Screenshots under
test-artifacts/console/."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import databases
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import LiveServer
from tests.mail_server import Inbox, smtp_server

__all__ = ["page"]

pytestmark = pytest.mark.browser
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_server() as inbox:
        yield inbox


@pytest.fixture(scope="module")
def mailing_server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path, inbox: Inbox
) -> Iterator[str]:
    """A server process that mails through the test's SMTP server."""
    folder = tmp_path_factory.mktemp("mailing-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start({"HEARKEN_SMTP_URL": f"smtp://127.0.0.1:{inbox.port}", "HEARKEN_OUTBOX_POLL_SECONDS": "0.2"})
    yield server.base_url
    server.stop()


def sign_up(page: Page, base_url: str, inbox: Inbox) -> str:
    """A new account, its address confirmed by the link mailed to it."""
    email = f"owner-{uuid.uuid4().hex[:8]}@acme.example"
    page.goto(base_url + "/signup")
    page.get_by_label("Organization name").fill("Acme")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    banner = page.get_by_role("region", name="Email confirmation")
    expect(banner).to_contain_text(f"we mailed a link to {email}")
    screenshot(page, "mail-00-confirm-banner")
    page.goto(inbox.link_to(email, "/account/confirm/"))
    expect(page.get_by_role("status")).to_contain_text("Your email address is confirmed.")
    expect(banner).to_have_count(0)
    return email


def test_forgot_password_link_sets_a_new_password(page: Page, mailing_server: str, inbox: Inbox) -> None:
    email = sign_up(page, mailing_server, inbox)
    page.get_by_role("button", name="Log out", exact=True).click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.get_by_role("link", name="Forgot password?").click()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send reset link").click()
    expect(page.get_by_role("status")).to_contain_text("a link to set a new password is on its way")
    screenshot(page, "mail-01-forgot-password")
    page.goto(inbox.link_to(email, "/password/reset/"))
    expect(page.get_by_role("heading", name="Set a new password")).to_be_visible()
    page.get_by_label("New password").fill("an even longer password")
    screenshot(page, "mail-02-set-password")
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()

    page.get_by_role("button", name="Log out", exact=True).click()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("do not match")
    page.get_by_label("Password").fill("an even longer password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def test_an_invitation_mailed_is_accepted_in_the_browser(
    page: Page, browser: Browser, mailing_server: str, inbox: Inbox
) -> None:
    sign_up(page, mailing_server, inbox)
    page.get_by_role("link", name="Members").click()
    guest = f"guest-{uuid.uuid4().hex[:8]}@acme.example"
    page.get_by_label("Email").fill(guest)
    page.get_by_role("button", name="Create invitation link").click()
    expect(page.get_by_role("status")).to_contain_text(f"We mailed this link to {guest}")
    screenshot(page, "mail-03-invitation-sent")
    link = inbox.link_to(guest, "/invitations/")
    assert link.startswith(page.locator("#invitation-link").inner_text() + ".")  # with the mail's proof

    context = browser.new_context()
    invited = context.new_page()
    invited.goto(link)
    expect(invited.get_by_role("heading", name="Join Acme")).to_be_visible()
    invited.get_by_label("Password").fill(PASSWORD)
    invited.get_by_role("button", name="Create account and join").click()
    expect(invited.get_by_role("heading", name="Projects")).to_be_visible()
    expect(invited.get_by_text(f"{guest} · member")).to_be_visible()
    context.close()


def test_a_member_chooses_notifications_per_project(page: Page, mailing_server: str, inbox: Inbox) -> None:
    sign_up(page, mailing_server, inbox)
    page.goto(mailing_server + "/projects")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Docs")
    page.get_by_role("button", name="Create project").click()
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Notifications").click()
    expect(page.get_by_label("New feedback")).to_have_value("each")
    page.get_by_label("New feedback").select_option(label="Daily digest")
    page.get_by_label("Contact messages").select_option(label="Off")
    page.get_by_role("button", name="Save notifications").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.get_by_label("New feedback")).to_have_value("daily")
    expect(page.get_by_label("Contact messages")).to_have_value("off")
    screenshot(page, "mail-04-notifications")
