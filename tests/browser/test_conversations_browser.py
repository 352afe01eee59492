"""Conversations in Chromium, the widget and the console side by side: a person identified by the site's
backend (setUser with a signature) opens Messages in the feedback widget on a page with a strict CSP, sees
their feedback's thread and answers it; a member answers on the item's page in the console; each side sees
the other's message without a reload, brought by their live streams (Server-Sent Events): the widget
asks for nothing by polling while its stream is open. Feedback sent from the widget with a token opens a
thread, and the person's answer waits, marked unread, in the team's Conversations inbox."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from app.identity.person_tokens import person_token
from app.ingest import MIN_HUMAN_MS
from tests.browser.conftest import ARTIFACTS
from tests.browser.widget_pages import Site
from tests.console_helpers import PASSWORD, add_user
from tests.local_http import local_http

pytestmark = pytest.mark.browser

PERSON = "user_ada"
WAIT_MS = 12_000
"""A message shows on the other side at once through the live stream; the margin is for a loaded machine
(the test proves the stream brought it by the requests the widget did not make)."""


@pytest.fixture(scope="module")
def pages(browser: Browser) -> Iterator[tuple[Page, Page]]:
    """The customer's page and the console, each in a context of its own, reused by the module's tests."""
    widget = browser.new_context(locale="en-US", viewport={"width": 640, "height": 820})
    console = browser.new_context(
        viewport={"width": 900, "height": 820}, extra_http_headers={"X-Forwarded-For": "198.18.7.1"}
    )
    yield widget.new_page(), console.new_page()
    widget.close()
    console.close()


def sign(secret: str, user: str) -> str:
    return hmac.new(secret.encode(), user.encode(), hashlib.sha256).hexdigest()


def side_by_side(left: Path, right: Path, name: str) -> Path:
    images = [Image.open(left), Image.open(right)]
    joined = Image.new("RGB", (sum(i.width for i in images), max(i.height for i in images)), "white")
    joined.paste(images[0], (0, 0))
    joined.paste(images[1], (images[0].width, 0))
    path = ARTIFACTS / f"{name}.png"
    joined.save(path)
    return path


def shoot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=path)
    return path


def signed_feedback(site: Site) -> str:
    """The project's new identity secret, after the person sent one signed feedback item."""
    server, tenant = site.server, site.tenant
    made = local_http.post(
        f"{server.base_url}/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers
    )
    secret: str = made.json()["secret"]
    signature = sign(secret, PERSON)
    submitted = local_http.post(
        f"{server.base_url}/api/v1/feedback/submit",
        json={
            "project_key": tenant.project_key,
            "message": "Export to CSV drops the last row",
            "type": "Bug",
            "submitted_by": PERSON,
            "user_signature": signature,
        },
        headers={"Origin": site.host.origin},
    )
    assert submitted.status_code == 200, submitted.text
    return secret


def test_a_person_and_a_member_talk_in_the_widget_and_the_console(
    pages: tuple[Page, Page], site: Site
) -> None:
    widget, console = pages
    server, tenant = site.server, site.tenant
    signature = sign(signed_feedback(site), PERSON)
    (item,) = server.read(tenant, "feedback")["feedback"]
    member = server._arrange(lambda maker: add_user(maker, tenant.org_id, "member@acme.example", "member"))

    asked: list[str] = []
    widget.on("request", lambda request: asked.append(request.url))
    console.on("request", lambda request: asked.append(request.url))
    widget.goto(
        site.page(site.tag("feedback"), script=f"HearkenFeedback.setUser('{PERSON}', '{signature}');")
    )
    widget.get_by_role("button", name="Feedback").click()
    dialog = widget.get_by_role("dialog", name="Send feedback")
    dialog.get_by_role("button", name="Messages").click()
    view = dialog.get_by_role("region", name="Messages")
    thread = view.get_by_role("button", name="Export to CSV drops the last row")
    expect(thread).to_be_visible()
    thread.click()
    expect(view.get_by_text("Export to CSV drops the last row")).to_be_visible()
    expect(view.get_by_label("Your answer")).to_be_focused()

    console.goto(server.base_url + "/login")
    console.get_by_label("Email").fill(member.email)
    console.get_by_label("Password").fill(PASSWORD)
    console.get_by_role("button", name="Log in").click()
    expect(console.get_by_role("heading", name="Projects")).to_be_visible()
    console.goto(f"{server.base_url}/projects/{tenant.project_id}/feedback/{item['id']}#conversation")
    conversation = console.get_by_role("region", name="Conversation")
    expect(conversation.get_by_text("Export to CSV drops the last row")).to_be_visible()
    conversation.get_by_label("Answer").fill("Fixed in 3.2, thanks for telling us!")
    assert any("/api/v1/conversations/" in url and "/events?" in url for url in asked)  # the widget's stream
    console_stream = f"{server.base_url}/projects/{tenant.project_id}/conversations/"
    assert any(url.startswith(console_stream) and url.endswith("/events") for url in asked)
    asked.clear()
    conversation.get_by_role("button", name="Send").click()
    expect(conversation.get_by_text("Fixed in 3.2, thanks for telling us!")).to_be_visible()
    expect(conversation.get_by_label("Answer")).to_have_value("")

    expect(view.get_by_text("Fixed in 3.2, thanks for telling us!")).to_be_visible(timeout=WAIT_MS)
    assert not [url for url in asked if "after=" in url]  # brought by the stream, not by a poll
    view.get_by_label("Your answer").fill("Works now, <b>great</b>!")
    view.get_by_label("Your answer").press("Tab")
    widget.keyboard.press("Enter")  # the Send button, reached by keyboard
    expect(view.get_by_text("Works now, <b>great</b>!")).to_be_visible()
    expect(console.get_by_text("Works now, <b>great</b>!")).to_be_visible(timeout=WAIT_MS)
    assert console.locator("#conversation b").count() == 0  # the person's text is shown as text

    side_by_side(shoot(widget, "conversation-widget"), shoot(console, "conversation-console"), "conversation")

    view.get_by_role("button", name="Back", exact=True).click()
    listed = view.get_by_role("button", name="Export to CSV drops the last row")
    expect(listed).to_be_visible()
    view.get_by_role("button", name="Back", exact=True).click()
    expect(dialog.get_by_label("Message")).to_be_visible()
    expect(dialog.get_by_role("button", name="Messages")).to_be_focused()


def test_a_token_identifies_the_person_and_the_view_speaks_german(
    pages: tuple[Page, Page], site: Site
) -> None:
    widget, _ = pages
    server, tenant = site.server, site.tenant
    secret = signed_feedback(site)
    (conversation,) = server.read(tenant, "conversations")["conversations"]
    answered = local_http.post(
        f"{server.base_url}/api/v1/projects/{tenant.project_id}/conversations/{conversation['id']}/messages",
        json={"message": "Behoben in 3.2."},
        headers=tenant.headers,
    )
    assert answered.status_code == 201, answered.text
    token = person_token(secret, PERSON, email="ada@example.com")
    widget.goto(
        site.page(site.tag("feedback", language="de"), script=f"HearkenFeedback.setUserToken('{token}');")
    )
    widget.get_by_role("button", name="Feedback").click()
    dialog = widget.get_by_role("dialog", name="Feedback senden")
    dialog.get_by_role("button", name="Nachrichten").click()
    view = dialog.get_by_role("region", name="Nachrichten")
    thread = view.get_by_role("button", name="Export to CSV drops the last row")
    expect(thread).to_contain_text("1 neu")
    shoot(widget, "conversation-widget-list-de")
    thread.click()
    expect(view.get_by_text("Behoben in 3.2.")).to_be_visible()
    expect(view.get_by_label("Ihre Antwort")).to_be_focused()
    widget.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    widget.get_by_role("button", name="Feedback").click()
    expect(dialog.get_by_label("Nachricht", exact=True)).to_be_visible()  # the form again, not the thread


def test_feedback_sent_with_a_token_opens_a_thread_the_team_finds_unread_in_its_inbox(
    pages: tuple[Page, Page], site: Site
) -> None:
    widget, console = pages
    server, tenant = site.server, site.tenant
    made = local_http.post(
        f"{server.base_url}/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers
    )
    token = person_token(made.json()["secret"], PERSON)
    widget.goto(site.page(site.tag("feedback"), script=f"HearkenFeedback.setUserToken('{token}');"))
    widget.get_by_role("button", name="Feedback").click()
    dialog = widget.get_by_role("dialog", name="Send feedback")
    dialog.get_by_label("Message").fill("Please add a dark mode")
    widget.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text("Thank you for your feedback!")
    mine = {"project_key": tenant.project_key, "token": token}
    origin = {"Origin": site.host.origin}
    (thread,) = local_http.get(f"{server.base_url}/api/v1/conversations", params=mine, headers=origin).json()[
        "conversations"
    ]
    asked = local_http.post(
        f"{server.base_url}/api/v1/conversations/{thread['id']}/messages",
        params=mine,
        json={"message": "Any news on <b>this</b>?"},
        headers=origin,
    )
    assert asked.status_code == 201, asked.text

    member = server._arrange(lambda maker: add_user(maker, tenant.org_id, "support@acme.example", "member"))
    console.context.clear_cookies()
    console.goto(server.base_url + "/login")
    console.get_by_label("Email").fill(member.email)
    console.get_by_label("Password").fill(PASSWORD)
    console.get_by_role("button", name="Log in").click()
    expect(console.get_by_role("heading", name="Projects")).to_be_visible()
    console.goto(f"{server.base_url}/projects/{tenant.project_id}/feedback")
    console.get_by_role("navigation", name="Project").get_by_role("link", name="Conversations").click()
    expect(console.get_by_role("heading", name="Conversations")).to_be_visible()
    console.get_by_role("link", name="Unread", exact=True).click()
    row = console.get_by_role("row").filter(has_text="Any news on <b>this</b>?")
    expect(row).to_contain_text("1 unread")
    expect(row).to_contain_text(PERSON)
    shoot(console, "conversations-inbox")
    row.get_by_role("link", name="Any news on <b>this</b>?").click()
    conversation = console.get_by_role("region", name="Conversation")
    expect(conversation.get_by_text("Please add a dark mode")).to_be_visible()
    console.go_back()
    console.reload()
    expect(console.get_by_text("Nothing unread")).to_be_visible()
