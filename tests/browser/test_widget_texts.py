"""Every visible text of a widget can be replaced with a data-text-<name> attribute ("-" between the words
of a name); the replaced text is what visitors and screen readers get, and what is stored is unchanged."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site


def test_helpful_texts_and_reasons_are_replaced_but_the_stored_reason_is_not(page: Page, site: Site) -> None:
    tag = site.tag(
        "helpful",
        reasons="true",
        language="de",  # a replacement wins over every language
        text_question="Hat Ihnen das geholfen?",
        text_no="Eher nicht",
        text_why_not="Woran lag es?",
        text_hard_to_understand="Zu kompliziert",
        text_thanks="Merci!",
    )
    page.goto(site.page(tag))
    widget = page.locator("hearken-helpful")
    expect(widget.get_by_role("group", name="Hat Ihnen das geholfen?")).to_be_visible()
    expect(widget.get_by_role("button", name="Ja")).to_be_visible()  # not replaced: the language's own
    widget.get_by_role("button", name="Eher nicht").click()
    why = widget.get_by_role("group", name="Woran lag es?")
    expect(why.get_by_role("button", name="Zu kompliziert")).to_be_visible()
    screenshot(page, "helpful-texts-replaced")
    why.get_by_role("button", name="Zu kompliziert").click()
    expect(widget.get_by_role("status")).to_have_text("Merci!")
    [rating] = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert rating["metadata"] == {"reason": "hard_to_understand"}


def test_nps_star_contact_and_feedback_texts(page: Page, site: Site) -> None:
    body = (
        site.tag(
            "nps",
            text_question="Would you recommend Acme Docs?",
            text_not_likely="Never",
            text_very_likely="Absolutely",
            text_comment="Anything else?",
            text_send="Submit score",
        )
        + site.tag(
            "star", text_question="Rate this guide", text_stars="{n} points", text_one_star="{n} point"
        )
        + site.tag("contact", text_button="Write to us", text_title="Write to Acme", text_email="Work email")
        + site.tag("feedback", text_button="Ideas?", text_bug="Defect", text_message="Your idea")
    )
    page.goto(site.page(body))
    nps = page.locator("hearken-nps")
    group = nps.get_by_role("radiogroup", name="Would you recommend Acme Docs?")
    expect(group.get_by_role("radio", name="0", exact=True)).to_have_accessible_description("Never")
    expect(group.get_by_role("radio", name="10", exact=True)).to_have_accessible_description("Absolutely")
    group.get_by_role("radio", name="7", exact=True).check()
    expect(nps.get_by_label("Anything else?")).to_be_visible()
    star = page.locator("hearken-star")
    expect(star.get_by_role("group", name="Rate this guide")).to_be_visible()
    expect(star.get_by_role("radio", name="1 point", exact=True)).to_have_count(1)
    expect(star.get_by_role("radio", name="4 points")).to_have_count(1)
    screenshot(page, "widgets-texts-replaced")

    page.get_by_role("button", name="Write to us").click()
    dialog = page.get_by_role("dialog", name="Write to Acme")
    expect(dialog.get_by_label("Work email")).to_be_visible()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Ideas?").click()
    feedback = page.get_by_role("dialog", name="Send feedback")
    feedback.get_by_label("Type").select_option(label="Defect")
    expect(feedback.get_by_label("Type")).to_have_value("Bug")  # the stored type is unchanged
    expect(feedback.get_by_label("Your idea")).to_be_visible()
    page.keyboard.press("Escape")

    nps.get_by_role("button", name="Submit score").click()
    expect(nps.get_by_role("status")).to_have_text("Thank you for your feedback!")
