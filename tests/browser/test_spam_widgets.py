"""Spam through the real widgets: a bot that submits the instant the form exists, or fills the hidden
field, is thanked like anyone and stored as spam; a person who takes the time to write is not."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from app.ingest import MIN_HUMAN_MS
from tests.browser.console_harness import screenshot
from tests.browser.widget_pages import Site
from tests.console_helpers import PASSWORD, add_user

THANKS = "Thank you for your feedback!"
SENT = "Thank you! Your message has been sent. Our team will respond soon."


def stored(site: Site, list_path: str, key: str) -> tuple[list[str], list[str]]:
    """The messages listed as real and as spam."""
    real = site.server.read(site.tenant, list_path)[key]
    joiner = "&" if "?" in list_path else "?"
    spam = site.server.read(site.tenant, f"{list_path}{joiner}spam=true")[key]
    return [row["message"] for row in real], [row["message"] for row in spam]


def test_a_bot_submitting_at_once_is_thanked_and_stored_as_spam(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("feedback")))
    widget = page.locator("hearken-feedback")
    expect(widget.get_by_role("button", name="Feedback")).to_be_visible()
    # What a script does: open, fill and submit in one go, with no person's pause.
    page.evaluate(
        """() => {
            const root = document.querySelector('hearken-feedback').shadowRoot;
            HearkenFeedback.open();
            root.querySelector('textarea').value = 'Cheap watches at example.com';
            root.querySelector('form').requestSubmit();
        }"""
    )
    dialog = page.get_by_role("dialog", name="Send feedback")
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    assert stored(site, "feedback", "feedback") == ([], ["Cheap watches at example.com"])


def test_a_filled_honeypot_is_stored_as_spam_however_slow(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("contact")))
    page.get_by_role("button", name="Contact Us").click()
    dialog = page.get_by_role("dialog", name="Contact us")
    dialog.get_by_label("Name").fill("Bot")
    dialog.get_by_label("Email").fill("bot@example.org")
    dialog.get_by_label("Message").fill("Buy followers now")
    honeypot = page.locator("hearken-contact input[name=website]")
    expect(honeypot).to_have_attribute("tabindex", "-1")
    expect(honeypot).to_have_attribute("autocomplete", "off")
    expect(honeypot).to_have_attribute("aria-hidden", "true")
    assert (
        dialog.get_by_role("textbox").count() == 3
    )  # hidden from the accessibility tree: only the real fields
    honeypot.fill("https://spam.example", force=True)  # bots fill every field they find in the markup
    page.wait_for_timeout(MIN_HUMAN_MS + 200)
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(SENT)
    assert stored(site, "contact-messages", "contact_messages") == ([], ["Buy followers now"])


def test_a_person_who_takes_time_to_write_is_not_spam(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("feedback")))
    page.get_by_role("button", name="Feedback").click()
    dialog = page.get_by_role("dialog", name="Send feedback")
    dialog.get_by_label("Message").press_sequentially("The search box ignores accents.")
    page.wait_for_timeout(MIN_HUMAN_MS + 200)  # however fast the typing above, a person reads first
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    assert stored(site, "feedback", "feedback") == (["The search box ignores accents."], [])


def test_the_spam_view_lists_what_bots_sent_and_not_spam_moves_it_to_the_inbox(
    page: Page, site: Site
) -> None:
    email = "sam@spam-view.example"
    site.server._arrange(lambda maker: add_user(maker, site.tenant.org_id, email, "admin"))
    page.goto(site.page(site.tag("feedback")))
    expect(page.locator("hearken-feedback").get_by_role("button", name="Feedback")).to_be_visible()
    page.evaluate(
        """() => {
            const root = document.querySelector('hearken-feedback').shadowRoot;
            HearkenFeedback.open();
            root.querySelector('textarea').value = 'Actually a person, just very quick';
            root.querySelector('form').requestSubmit();
        }"""
    )
    expect(page.get_by_role("dialog", name="Send feedback").get_by_role("status")).to_have_text(THANKS)
    assert stored(site, "feedback", "feedback") == ([], ["Actually a person, just very quick"])

    base = site.server.base_url
    page.goto(base + "/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/projects/{site.tenant.project_id}")
    page.get_by_role("link", name="Spam").click()
    row = page.get_by_role("row").filter(has_text="Actually a person, just very quick")
    expect(row).to_be_visible()
    screenshot(page, "spam-view")
    screenshot(page, "spam-view-phone", width=390)
    row.get_by_role("button", name="Not spam").click()
    expect(page.get_by_role("row").filter(has_text="Actually a person, just very quick")).to_have_count(0)
    assert stored(site, "feedback", "feedback") == (["Actually a person, just very quick"], [])
