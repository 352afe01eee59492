"""Each widget, used as a visitor would, stores what it says it stored: read back through the API with
the page's path, the data-version and the user id given to setUser()."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from app.ingest import MIN_HUMAN_MS
from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site
from tests.local_http import local_http

USER = "user_42-x"


def path_of(url: str) -> str:
    return urlsplit(url).path


def signature_for(site: Site, user: str) -> str:
    """A new identity secret for the site's project, and the user's signature made with it as a backend
    would make it."""
    response = local_http.post(
        f"{site.server.base_url}/api/v1/projects/{site.tenant.project_id}/identity-secret",
        headers=site.tenant.headers,
        timeout=10,
    )
    assert response.status_code == 201
    return hmac.new(response.json()["secret"].encode(), user.encode(), hashlib.sha256).hexdigest()


def test_helpful_yes_is_stored_with_path_version_and_user(page: Page, site: Site) -> None:
    url = site.page(site.tag("helpful", version="2.4.1"), script=f"HearkenHelpful.setUser('{USER}');")
    page.goto(url)
    widget = page.locator("hearken-helpful")
    expect(widget.get_by_text("Was this page helpful?")).to_be_visible()
    widget.get_by_role("button", name="Yes").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    expect(widget.get_by_role("button", name="Yes")).to_be_hidden()
    screenshot(page, "helpful-thanks")

    [rating] = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert rating["value"] == {"type": "helpful", "value": True}
    assert (rating["path"], rating["version"], rating["submitted_by"]) == (path_of(url), "2.4.1", USER)
    assert rating["submitted_by_verified"] is False  # no signature given


def test_no_then_inline_comment_when_the_feedback_widget_is_absent(page: Page, site: Site) -> None:
    url = site.page(
        site.tag("helpful", version="7", show_comment_link="true"),
        script=f"HearkenHelpful.setUser('{USER}');",
    )
    page.goto(url)
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="No").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    widget.get_by_role("button", name="Tell us more").click()
    comment = widget.get_by_label("Tell us more")
    expect(comment).to_be_focused()
    comment.fill("no")  # shorter than the server takes: Send waits for a third character
    expect(widget.get_by_role("button", name="Send")).to_be_disabled()
    comment.fill("The install steps skip the database migration.")
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text("Comment sent. Thank you!")
    screenshot(page, "helpful-inline-comment-sent")

    [rating] = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert rating["value"]["value"] is False
    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert item["message"] == "The install steps skip the database migration."
    assert (item["source"], item["status"], item["type"]) == ("Widget", "New", "Other")
    assert (item["path"], item["version"], item["submitted_by"]) == (path_of(url), "7", USER)


def test_no_then_comment_opens_the_feedback_dialog_when_that_widget_is_loaded(page: Page, site: Site) -> None:
    url = site.page(site.tag("helpful", show_comment_link="yes") + site.tag("feedback", version="7"))
    page.goto(url)
    helpful = page.locator("hearken-helpful")
    helpful.get_by_role("button", name="No").click()
    helpful.get_by_role("button", name="Tell us more").click()
    dialog = page.get_by_role("dialog", name="Send feedback")
    expect(dialog).to_be_visible()
    expect(helpful.get_by_label("Tell us more")).to_be_hidden()  # no inline comment box as well
    dialog.get_by_label("Message").fill("A worked example would help.")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text("Thank you for your feedback!")
    screenshot(page, "helpful-comment-in-feedback-dialog")

    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert (item["message"], item["path"], item["version"]) == (
        "A worked example would help.",
        path_of(url),
        "7",
    )


def test_star_rating_is_stored_with_its_scale(page: Page, site: Site) -> None:
    url = site.page(site.tag("star", max_stars="7", version="v3"), script=f"HearkenStar.setUser('{USER}');")
    page.goto(url)
    widget = page.locator("hearken-star")
    expect(widget.get_by_role("radio")).to_have_count(7)
    expect(widget.get_by_role("radio", name="1 star", exact=True)).to_be_visible()
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text("Please choose a rating.")
    widget.get_by_role("radio", name="6 stars").check()
    screenshot(page, "star-chosen")
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")

    [rating] = site.server.read(site.tenant, "ratings/typed?type=star")["ratings"]
    assert rating["value"] == {"type": "star", "value": 6, "max_stars": 7}
    assert (rating["path"], rating["version"], rating["submitted_by"]) == (path_of(url), "v3", USER)


def test_feedback_widget_stores_type_and_message(page: Page, site: Site) -> None:
    signature = signature_for(site, USER)
    url = site.page(
        site.tag("feedback", version="9.0"), script=f"HearkenFeedback.setUser('{USER}', '{signature}');"
    )
    page.goto(url)
    page.get_by_role("button", name="Feedback").click()
    dialog = page.get_by_role("dialog", name="Send feedback")
    dialog.get_by_label("Type").select_option(label="Bug")
    dialog.get_by_label("Message").fill("The search box ignores accents.")
    screenshot(page, "feedback-dialog-filled")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text("Thank you for your feedback!")
    expect(dialog.get_by_label("Message")).to_be_hidden()

    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert (item["type"], item["message"], item["source"]) == (
        "Bug",
        "The search box ignores accents.",
        "Widget",
    )
    assert (item["path"], item["version"], item["submitted_by"]) == (path_of(url), "9.0", USER)
    assert item["submitted_by_verified"] is True


def test_feedback_widget_asks_for_an_address_to_tell_when_resolved(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("feedback", ask_email="true", language="de")))
    page.get_by_role("button", name="Feedback").click()
    dialog = page.get_by_role("dialog", name="Feedback senden")
    dialog.get_by_label("Nachricht").fill("Die Suche ignoriert Umlaute.")
    address = dialog.get_by_label("Mir eine E-Mail senden, wenn das erledigt ist")
    address.fill("not an address")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Senden").click()
    expect(dialog.get_by_text("Bitte geben Sie eine gültige E-Mail-Adresse ein.")).to_be_visible()
    address.fill("reporter@visitor.example")
    dialog.get_by_role("button", name="Senden").click()
    expect(dialog.get_by_role("status")).to_have_text("Vielen Dank für Ihr Feedback!")

    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert (item["message"], item["notify_email"]) == (
        "Die Suche ignoriert Umlaute.",
        "reporter@visitor.example",
    )


def test_contact_message_is_stored_with_subject_path_and_version(page: Page, site: Site) -> None:
    signature = signature_for(site, USER)
    url = site.page(
        site.tag("contact", show_subject="true", version="2026.11"),
        script=f"HearkenContact.setUser('{USER}', '{signature}');",
    )
    page.goto(url)
    page.get_by_role("button", name="Contact Us").click()
    dialog = page.get_by_role("dialog", name="Contact us")
    expect(dialog.get_by_label("Name")).to_be_focused()
    dialog.get_by_label("Name").fill("Ada Lovelace")
    dialog.get_by_label("Email").fill("ada@example.org")
    dialog.get_by_label("Subject").fill("Invoices")
    dialog.get_by_label("Message").fill("Where do I find last year's invoices?")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(
        "Thank you! Your message has been sent. Our team will respond soon."
    )
    screenshot(page, "contact-sent")

    [message] = site.server.read(site.tenant, "contact-messages")["contact_messages"]
    assert (message["name"], message["email"], message["subject"]) == (
        "Ada Lovelace",
        "ada@example.org",
        "Invoices",
    )
    assert message["message"] == "Where do I find last year's invoices?"
    assert (message["path"], message["version"]) == (path_of(url), "2026.11")
    assert (message["submitted_by"], message["submitted_by_verified"]) == (USER, True)


def test_contact_without_subject_field_sends_no_subject(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("contact")))
    page.get_by_role("button", name="Contact Us").click()
    dialog = page.get_by_role("dialog", name="Contact us")
    expect(dialog.get_by_label("Subject")).to_have_count(0)
    dialog.get_by_label("Name").fill("Bo")
    dialog.get_by_label("Email").fill("bo@example.se")
    dialog.get_by_label("Message").fill("Hello there")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_contain_text("respond soon")

    [message] = site.server.read(site.tenant, "contact-messages")["contact_messages"]
    assert message.get("subject") is None
    assert message.get("version") is None
