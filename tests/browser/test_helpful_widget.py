"""The helpful widget's attributes and global object."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site


def test_question_colour_container_and_powered_by(page: Page, site: Site) -> None:
    body = site.tag(
        "helpful",
        question="Did this answer your question?",
        button_color="#be123c",
        container="#feedback-slot",
        show_powered_by="true",
    )
    page.goto(site.page(body + '<p>Some text.</p><div id="feedback-slot"></div>'))
    slot = page.locator("#feedback-slot hearken-helpful")
    expect(slot.get_by_text("Did this answer your question?")).to_be_visible()
    expect(slot.get_by_text("Powered by Hearken")).to_be_visible()
    border = slot.get_by_role("button", name="Yes").evaluate("el => getComputedStyle(el).borderTopColor")
    assert border == "rgb(190, 18, 60)"
    screenshot(page, "helpful-container")


@pytest.mark.parametrize(
    ("setting", "shown"), [(None, False), ("true", True), ("1", True), ("yes", True), ("no", False)]
)
def test_powered_by_is_hidden_unless_asked_for(
    page: Page, site: Site, setting: str | None, shown: bool
) -> None:
    data = {} if setting is None else {"show_powered_by": setting}
    page.goto(site.page(site.tag("helpful", **data)))
    expect(page.locator("hearken-helpful").get_by_text("Was this page helpful?")).to_be_visible()
    expect(page.get_by_text("Powered by Hearken")).to_have_count(1 if shown else 0)


def test_no_comment_link_unless_enabled(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("helpful")))
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="No").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    expect(widget.get_by_role("button", name="Tell us more")).to_be_hidden()


def test_set_user_validates_and_keyboard_alone_rates(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("helpful")))
    assert page.evaluate("HearkenHelpful.setUser('valid_user-1')") is True
    assert page.evaluate("HearkenHelpful.setUser('not valid!')") is False  # ignored: the valid one stays
    assert page.evaluate("HearkenHelpful.container.shadowRoot !== null") is True
    page.keyboard.press("Tab")
    widget = page.locator("hearken-helpful")
    expect(widget.get_by_role("button", name="Yes")).to_be_focused()
    page.keyboard.press("Tab")
    expect(widget.get_by_role("button", name="No")).to_be_focused()
    page.keyboard.press("Enter")
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    [rating] = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert rating["submitted_by"] == "valid_user-1"


def test_star_by_keyboard_alone(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("star")))
    widget = page.locator("hearken-star")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(widget.get_by_role("radio", name="3 stars")).to_be_checked()
    page.keyboard.press("Tab")
    expect(widget.get_by_role("button", name="Send")).to_be_focused()
    page.keyboard.press("Enter")
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    [rating] = site.server.read(site.tenant, "ratings/typed?type=star")["ratings"]
    assert rating["value"]["value"] == 3
