"""The console in Chromium, as a new customer uses it: sign up, create a project, allow an origin,
create a token, use it on the API, revoke it. Screenshots of each page go to test-artifacts/console/."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.browser.console_harness import console_server, page, screenshot

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser


def api_status(base_url: str, token: str) -> int:
    request = urllib.request.Request(f"{base_url}/api/v1/projects", headers={"X-API-Key": token})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def sign_up(page: Page, base_url: str, org: str = "Acme Docs") -> str:
    email = f"owner-{uuid.uuid4().hex[:8]}@acme.example"
    page.goto(base_url + "/")
    expect(page).to_have_url(re.compile(r"/login$"))
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Organization name").fill(org)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    return email


def test_sign_up_project_origin_token_api_revoke(page: Page, console_server: str) -> None:
    base_url = console_server
    page.goto(base_url + "/login")
    screenshot(page, "01-login")
    page.goto(base_url + "/signup")
    page.get_by_label("Password").fill("short")
    screenshot(page, "02-signup")
    email = sign_up(page, base_url)
    screenshot(page, "03-projects-empty")

    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Help center")
    page.get_by_label("Description").fill("Docs at docs.acme.example")
    screenshot(page, "04-project-new")
    page.get_by_role("button", name="Create project").click()
    expect(page.get_by_role("heading", name="Help center", level=1)).to_be_visible()
    project_key = page.locator("#project-key").inner_text()
    assert uuid.UUID(project_key)

    origin = page.get_by_label("Allowed origin")
    origin.fill("docs.acme.example")
    page.get_by_role("button", name="Add origin").click()
    expect(page.locator("#e-origin")).to_contain_text("needs a scheme")
    expect(page.get_by_label("Allowed origin")).to_be_focused()
    page.get_by_label("Allowed origin").fill("HTTPS://Docs.Acme.Example:443")
    page.get_by_role("button", name="Add origin").click()
    expect(page.locator("#origins code", has_text="https://docs.acme.example")).to_be_visible()
    page.get_by_role("button", name="Copy key").click()
    assert page.evaluate("navigator.clipboard.readText()") == project_key
    screenshot(page, "05-project")
    screenshot(page, "05-project-phone", width=390)

    page.get_by_role("link", name="Install", exact=True).click()
    expect(page.locator("#snippet-helpful")).to_contain_text(f'data-project-key="{project_key}"')
    screenshot(page, "06-install")
    page.get_by_role("link", name="Widgets on documentation platforms").click()
    expect(page.get_by_role("heading", name="Docusaurus")).to_be_visible()
    screenshot(page, "06-platforms-guide")
    page.go_back()

    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Label").fill("CI export")
    page.get_by_label("Scope").select_option("write")
    page.get_by_role("button", name="Create token").click()
    token = page.locator("#new-token").inner_text()
    assert re.fullmatch(r"oat_[A-Za-z0-9_-]{43}", token)
    screenshot(page, "07-token-created")
    assert api_status(base_url, token) == 200

    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("revoked", exact=True)).to_be_visible()
    assert page.locator("#new-token").count() == 0  # the value is not shown again
    assert api_status(base_url, token) == 401
    screenshot(page, "08-tokens")
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("No tokens yet.")).to_be_visible()

    page.get_by_role("link", name="Members").click()
    expect(page.get_by_role("rowheader", name=re.compile(email))).to_be_visible()
    page.get_by_label("Email").fill("teammate@acme.example")
    page.get_by_role("button", name="Create invitation link").click()
    expect(page.locator("#invitation-link")).to_contain_text("/invitations/")
    screenshot(page, "09-members")


def test_form_posted_without_csrf_token_is_refused(page: Page, console_server: str) -> None:
    sign_up(page, console_server, org="CSRF Org")
    page.goto(console_server + "/projects/new")
    page.locator("#main input[name=_csrf_token]").evaluate("input => input.remove()")
    page.get_by_label("Name").fill("Forged project")
    page.get_by_role("button", name="Create project").click()
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_text("security token was missing")).to_be_visible()
    page.goto(console_server + "/projects")
    expect(page.get_by_text("Forged project")).to_have_count(0)


def test_keyboard_only_sign_in(page: Page, console_server: str) -> None:
    email = sign_up(page, console_server, org="Keyboard Org")
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.keyboard.press("Tab")  # skip link
    page.keyboard.press("Tab")  # brand
    page.keyboard.press("Tab")
    expect(page.get_by_label("Email")).to_be_focused()
    page.keyboard.type(email)
    page.keyboard.press("Tab")
    page.keyboard.type("a long enough password")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    assert json.loads(json.dumps(page.url)).endswith("/projects")


def api_post(base_url: str, token: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base_url}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={"X-API-Key": token, "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return dict(json.loads(response.read()))


def project_with_token(page: Page, base_url: str, org: str) -> tuple[str, str]:
    """Sign up, create a project and a write token in the console; returns (project id, token)."""
    sign_up(page, base_url, org=org)
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Docs")
    page.get_by_role("button", name="Create project").click()
    project_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.get_by_role("link", name="API tokens").click()
    page.get_by_role("button", name="Create token").click()
    return project_id, page.locator("#new-token").inner_text()


def test_hostile_feedback_is_shown_as_text_and_triaged(page: Page, console_server: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    project_id, token = project_with_token(page, console_server, "Triage Org")
    hostile = "<img src=x onerror=alert(1)>"
    api_post(console_server, token, f"/projects/{project_id}/feedback", {"message": hostile, "type": "Bug"})
    api_post(console_server, token, f"/projects/{project_id}/feedback", {"message": "Typo on /start"})

    page.goto(f"{console_server}/projects/{project_id}/feedback")
    expect(page.get_by_role("link", name=hostile)).to_be_visible()
    assert page.locator("img[src=x]").count() == 0
    screenshot(page, "10-feedback-inbox")

    row = page.locator("tr", has_text=hostile)
    row.get_by_label("Status").select_option("Active")
    expect(page.locator("tr", has_text=hostile).get_by_text("Saved")).to_be_visible()
    page.get_by_label("Type").select_option("Bug")
    expect(page.locator("#feedback-list")).to_contain_text("1 item")
    page.get_by_label("Type").select_option("")

    page.get_by_role("link", name=hostile).click()
    expect(page.locator(".message-body")).to_have_text(hostile)
    for status in ("Assigned", "Hold", "Resolved"):
        page.locator("#f-status").select_option(status)
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.locator("#detail-status")).to_have_text(status)
    page.get_by_label("Resolution note").fill("Escaped since 2.1")
    page.get_by_role("button", name="Save", exact=True).click()
    history = page.locator(".history li")
    expect(history).to_have_count(5)
    expect(history.last).to_contain_text("resolution note")
    page.get_by_role("button", name="Archive").click()
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    screenshot(page, "11-feedback-item")
    page.get_by_role("button", name="Restore").click()
    expect(page.get_by_role("button", name="Archive")).to_be_visible()
    assert dialogs == []
    screenshot(page, "11-feedback-item-phone", width=390)


def test_ratings_page_with_charts(page: Page, console_server: str) -> None:
    project_id, token = project_with_token(page, console_server, "Ratings Org")
    ratings = f"/projects/{project_id}/ratings"
    for path, value in [
        ("/install", False),
        ("/install", False),
        ("/faq", True),
        ("/", True),
        ("/faq", False),
    ]:
        api_post(console_server, token, ratings, {"value": value, "path": path})
    for kind, value in [("star", 5), ("star", 3), ("nps", 10), ("nps", 6)]:
        api_post(console_server, token, ratings + "/typed", {"rating": {"type": kind, "value": value}})
    page.goto(console_server + ratings)
    expect(page.locator(".big").first).to_have_text("40.0 %")
    expect(page.locator("svg rect.bar")).to_have_count(3)
    expect(page.locator("tr", has_text="/install")).to_contain_text("2")
    screenshot(page, "12-ratings")
    screenshot(page, "12-ratings-phone", width=390)


def test_account_change_password_and_log_out_other_sessions(page: Page, console_server: str) -> None:
    base_url = console_server
    email = sign_up(page, base_url, org="Account Org")
    page.get_by_role("link", name="Your account").click()
    expect(page.get_by_role("heading", name="Change password")).to_be_visible()
    screenshot(page, "20-account")
    page.get_by_label("Current password").fill("not the password")
    page.get_by_label("New password").fill("an even longer password")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#e-current_password")).to_have_text("Does not match your password")
    screenshot(page, "21-account-error")
    page.get_by_label("Current password").fill("a long enough password")
    page.get_by_label("New password").fill("an even longer password")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("status")).to_have_text("Your password was changed.")
    others = page.get_by_role("region", name="Log out other sessions")
    others.get_by_label("Your password").fill("an even longer password")
    others.get_by_role("button", name="Log out other sessions").click()
    expect(page.get_by_role("status")).to_have_text("Every other session was logged out.")
    expect(page.get_by_text(f"Signed in as {email}.")).to_be_visible()
    screenshot(page, "22-account-done")
    page.goto(base_url + "/projects/0190b2b4-0000-7000-8000-000000000000")
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)
    screenshot(page, "23-error-page")


def test_ratings_page_compares_a_pages_versions(page: Page, console_server: str) -> None:
    project_id, token = project_with_token(page, console_server, "Versions Org")
    typed = f"/projects/{project_id}/ratings/typed"
    votes = [("2.3", True, None)] * 9 + [("2.3", False, "other")]
    votes += (
        [("2.4", True, None)] * 2
        + [("2.4", False, "code_sample_wrong")] * 5
        + [("2.4", False, "inaccurate")] * 3
    )
    for version, value, reason in votes:
        context = {"path": "/install", "version": version, "metadata": {"reason": reason} if reason else None}
        api_post(
            console_server, token, typed, {"rating": {"type": "helpful", "value": value}, "context": context}
        )
    page.goto(f"{console_server}/projects/{project_id}/ratings?path=/install")
    versions = page.get_by_role("region", name="Versions")
    expect(versions.get_by_text("Helpfulness fell from 90 % to 20 % in 2.4")).to_be_visible()
    expect(versions.get_by_role("row")).to_have_count(3)  # the header and two versions, oldest first
    expect(versions.get_by_role("row").nth(1)).to_contain_text("2.3")
    expect(versions.get_by_role("img", name="59.6 % to 98.2 %")).to_be_visible()
    expect(versions.get_by_role("listitem")).to_have_text(["Code sample wrong 5", "Inaccurate 3", "Other 1"])
    expect(page.get_by_role("region", name="Net Promoter Score")).to_contain_text("No ratings yet")
    versions.scroll_into_view_if_needed()
    screenshot(page, "13-ratings-versions")


def test_the_retention_field_is_wide_enough_for_its_numbers(page: Page, console_server: str) -> None:
    """Review: the retention field of the project overview ("Keep data for (days)") rendered as a tiny box,
    the browser's own number input beside the console's styled fields. It is styled as they are and wide
    enough to show five digits."""
    sign_up(page, console_server, org="Retention Docs")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Docs")
    page.get_by_role("button", name="Create project").click()
    field = page.get_by_label("Keep data for (days)")
    field.fill("3650")
    screenshot(page, "retention-field")
    measure = "input => [input.getBoundingClientRect().width, input.getBoundingClientRect().height]"
    width, height = field.evaluate(measure)
    _, name_height = page.get_by_label("Name").evaluate(measure)
    em = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert width >= 6 * em, (width, em)  # five digits and the spin buttons
    assert abs(height - name_height) <= 1, (height, name_height)  # as tall as the fields beside it
    assert field.evaluate("input => input.scrollWidth <= input.clientWidth")  # nothing cut off
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("30", "3650")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.get_by_label("Keep data for (days)")).to_have_value("3650")
