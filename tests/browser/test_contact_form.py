"""The contact dialog: every validation message beside its field with focus on the first invalid one,
closing by Escape, by a click outside and by the API, keyboard-only use, and its global object."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from app.ingest import MIN_HUMAN_MS
from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site

REQUIRED = "Please fill in this field."


def open_contact(page: Page, site: Site) -> Locator:
    page.goto(site.page(site.tag("contact", show_subject="true")))
    page.get_by_role("button", name="Contact Us").click()
    return page.get_by_role("dialog", name="Contact us")


def fill(dialog: Locator, **values: str) -> None:
    for label, value in values.items():
        dialog.get_by_label(label.capitalize(), exact=True).fill(value)


VALID = {"name": "Ada", "email": "ada@example.org", "subject": "", "message": "Hello there"}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", REQUIRED),
        ("name", "   ", REQUIRED),
        ("name", "n" * 201, "At most 200 characters."),
        ("email", "", REQUIRED),
        ("email", "ada.example.org", "Please enter a valid email address."),
        ("email", "ada@example", "Please enter a valid email address."),
        ("email", "a" * 310 + "@example.org", "At most 320 characters."),
        ("subject", "s" * 201, "At most 200 characters."),
        ("message", "", REQUIRED),
        ("message", "hi", "At least 3 characters."),
        ("message", "m" * 2001, "At most 2000 characters."),
    ],
)
def test_each_invalid_field_is_named_focused_and_nothing_is_sent(
    page: Page, site: Site, field: str, value: str, message: str
) -> None:
    dialog = open_contact(page, site)
    fill(dialog, **{**VALID, field: value})
    dialog.get_by_role("button", name="Send").click()
    control = dialog.get_by_label(field.capitalize(), exact=True)
    expect(control).to_have_accessible_description(message)
    expect(control).to_have_attribute("aria-invalid", "true")
    expect(control).to_be_focused()
    for other in VALID.keys() - {field}:
        expect(dialog.get_by_label(other.capitalize(), exact=True)).to_have_accessible_description("")
    assert site.server.read(site.tenant, "contact-messages")["contact_messages"] == []


def test_all_missing_fields_are_reported_at_once_and_focus_goes_to_the_first(page: Page, site: Site) -> None:
    dialog = open_contact(page, site)
    dialog.get_by_label("Email").fill("ada@example.org")
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_label("Name")).to_have_accessible_description(REQUIRED)
    expect(dialog.get_by_label("Message")).to_have_accessible_description(REQUIRED)
    expect(dialog.get_by_label("Email")).to_have_accessible_description("")
    expect(dialog.get_by_label("Name")).to_be_focused()
    screenshot(page, "contact-validation")
    dialog.get_by_label("Name").fill("Ada")
    dialog.get_by_label("Message").fill("Now it is complete.")
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_contain_text("respond soon")
    expect(dialog.get_by_label("Name")).to_have_accessible_description("")


def test_escape_and_a_click_outside_close_the_dialog_and_keep_the_draft(page: Page, site: Site) -> None:
    dialog = open_contact(page, site)
    expect(dialog).to_have_attribute("aria-modal", "true")
    dialog.get_by_label("Message").fill("draft")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name="Contact Us")).to_be_focused()

    page.get_by_role("button", name="Contact Us").click()
    expect(dialog.get_by_label("Message")).to_have_value("draft")
    page.mouse.click(5, 5)  # the backdrop, outside the dialog box
    expect(dialog).to_be_hidden()

    page.get_by_role("button", name="Contact Us").click()
    dialog.get_by_label("Name").click()  # a click inside does not close it
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def test_global_object_opens_closes_and_resets(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("contact")))
    dialog = page.get_by_role("dialog", name="Contact us")
    page.evaluate("HearkenContact.open()")
    expect(dialog).to_be_visible()
    page.evaluate("HearkenContact.close()")
    expect(dialog).to_be_hidden()
    page.evaluate("HearkenContact.open()")
    page.evaluate("HearkenContact.reset()")
    expect(dialog).to_be_hidden()
    assert page.evaluate("HearkenContact.container.tagName") == "HEARKEN-CONTACT"
    assert page.evaluate("HearkenContact.setUser('ok_id-1')") is True
    assert page.evaluate("HearkenContact.setUser('ada@example.org')") is False
    assert page.evaluate("HearkenContact.setUser('x'.repeat(256))") is False


def test_after_sending_the_next_opening_starts_with_an_empty_form(page: Page, site: Site) -> None:
    dialog = open_contact(page, site)
    fill(dialog, **VALID)
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_contain_text("respond soon")
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    dialog.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Contact Us").click()
    expect(dialog.get_by_label("Name")).to_have_value("")
    expect(dialog.locator("[role=status]")).to_have_text("")


def test_contact_form_works_by_keyboard_alone(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("contact")))
    launcher = page.get_by_role("button", name="Contact Us")
    for _ in range(5):
        if launcher.evaluate("el => el.matches(':focus')"):
            break
        page.keyboard.press("Tab")
    expect(launcher).to_be_focused()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Contact us")
    expect(dialog.get_by_label("Name")).to_be_focused()
    page.keyboard.type("Kim")
    page.keyboard.press("Tab")
    page.keyboard.type("kim@example.net")
    page.keyboard.press("Tab")
    page.keyboard.type("Typed without a mouse.")
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("button", name="Send")).to_be_focused()
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    page.keyboard.press("Enter")
    expect(dialog.get_by_role("status")).to_contain_text("respond soon")
    [message] = site.server.read(site.tenant, "contact-messages")["contact_messages"]
    assert message["message"] == "Typed without a mouse."


@pytest.mark.parametrize(("setting", "shown"), [(None, True), ("false", False), ("0", False), ("no", False)])
def test_contact_shows_powered_by_unless_turned_off(
    page: Page, site: Site, setting: str | None, shown: bool
) -> None:
    data = {} if setting is None else {"show_powered_by": setting}
    page.goto(site.page(site.tag("contact", **data)))
    page.get_by_role("button", name="Contact Us").click()
    expect(page.get_by_text("Powered by Hearken")).to_have_count(1 if shown else 0)


@pytest.mark.parametrize("position", ["bottom-right", "right-side", "icon-only"])
def test_button_positions(page: Page, site: Site, position: str) -> None:
    page.goto(
        site.page(site.tag("contact", button_position=position, button_text="Talk to us", color="#0f766e"))
    )
    launcher = page.get_by_role("button", name="Talk to us")
    expect(launcher).to_be_visible()
    box = launcher.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] > 1000 - 40  # against the right edge
    if position == "icon-only":
        assert box["width"] < 80 and launcher.inner_text() == ""
    screenshot(page, f"contact-{position}")
