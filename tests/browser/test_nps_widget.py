"""The NPS widget as visitors use it: by keyboard alone, with a screen reader's names, in German and
Swedish; a rating is stored as a typed nps rating and a comment as a feedback item carrying the score."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site

QUESTION = "How likely are you to recommend us to a friend or colleague?"
THANKS = "Thank you for your feedback!"


def test_keyboard_alone_scores_comments_and_sends(page: Page, site: Site) -> None:
    url = site.page(site.tag("nps", version="3.1"), script="HearkenNps.setUser('nps_user');")
    page.goto(url)
    widget = page.locator("hearken-nps")
    expect(widget.get_by_role("button", name="Send")).to_be_hidden()  # nothing to send before a score
    page.keyboard.press("Tab")
    expect(widget.get_by_role("radio", name="0", exact=True)).to_be_focused()
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    expect(widget.get_by_role("radio", name="9", exact=True)).to_be_checked()
    page.keyboard.press("Tab")
    comment = widget.get_by_label("Why this score? (optional)")
    expect(comment).to_be_focused()
    page.keyboard.type("Clear install guide.")
    page.keyboard.press("Tab")
    expect(widget.get_by_role("button", name="Send")).to_be_focused()
    screenshot(page, "nps-chosen")
    page.keyboard.press("Enter")
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    screenshot(page, "nps-thanks")

    [rating] = site.server.read(site.tenant, "ratings/typed?type=nps")["ratings"]
    assert rating["value"] == {"type": "nps", "value": 9}
    path = urlsplit(url).path
    assert (rating["path"], rating["version"], rating["submitted_by"]) == (path, "3.1", "nps_user")
    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert (item["message"], item["path"], item["version"], item["submitted_by"], item["metadata"]) == (
        "Clear install guide.",
        path,
        "3.1",
        "nps_user",
        {"nps": 9},
    )


def test_screen_reader_names_and_the_words_at_both_ends(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("nps")))
    widget = page.locator("hearken-nps")
    group = widget.get_by_role("radiogroup", name=QUESTION)
    expect(group).to_be_visible()
    for score in range(11):
        expect(group.get_by_role("radio", name=str(score), exact=True)).to_have_count(1)
    expect(group.get_by_role("radio")).to_have_count(11)
    expect(group.get_by_role("radio", name="0", exact=True)).to_have_accessible_description("Not likely")
    expect(group.get_by_role("radio", name="10", exact=True)).to_have_accessible_description("Very likely")
    expect(widget.get_by_text("Not likely")).to_be_visible()
    expect(widget.get_by_text("Very likely")).to_be_visible()
    screenshot(page, "nps")

    page.set_viewport_size({"width": 340, "height": 600})  # a small phone: all eleven scores still fit
    box = widget.get_by_role("radio", name="10", exact=True).bounding_box()
    assert box is not None and box["x"] + box["width"] <= 340
    screenshot(page, "nps-phone")


def test_a_score_alone_stores_no_feedback_and_a_short_comment_waits(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("nps", color="#0f766e")))
    widget = page.locator("hearken-nps")
    widget.get_by_role("radio", name="3", exact=True).check()
    comment = widget.get_by_label("Why this score? (optional)")
    send = widget.get_by_role("button", name="Send")
    comment.fill("ok")  # the server takes comments of 3 characters or more
    expect(send).to_be_disabled()
    comment.fill("  ")
    expect(send).to_be_enabled()
    send.click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    ratings = site.server.read(site.tenant, "ratings/typed?type=nps")["ratings"]
    assert [r["value"]["value"] for r in ratings] == [3]
    assert site.server.read(site.tenant, "feedback")["feedback"] == []


def test_a_comment_that_fails_is_sent_again_without_a_second_rating(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("nps")))
    widget = page.locator("hearken-nps")
    page.route("**/api/v1/feedback/submit", lambda route: route.abort())
    widget.get_by_role("radio", name="10", exact=True).check()
    widget.get_by_label("Why this score? (optional)").fill("Fast answers from support.")
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text("Sorry, sending failed. Please try again later.")
    expect(widget.get_by_role("radio", name="10", exact=True)).to_be_disabled()  # that score is stored
    page.unroute("**/api/v1/feedback/submit")
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    assert len(site.server.read(site.tenant, "ratings/typed?type=nps")["ratings"]) == 1
    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert item["message"] == "Fast answers from support."


def test_german_and_swedish(browser: Browser, site: Site) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(site.page(site.tag("nps", language="de")))
    widget = page.locator("hearken-nps")
    group = widget.get_by_role(
        "radiogroup", name="Wie wahrscheinlich ist es, dass Sie uns einem Freund oder Kollegen empfehlen?"
    )
    zero = group.get_by_role("radio", name="0", exact=True)
    expect(zero).to_have_accessible_description("Unwahrscheinlich")
    group.get_by_role("radio", name="8", exact=True).check()
    widget.get_by_label("Warum diese Bewertung? (optional)").fill("Gute Beispiele.")
    screenshot(page, "nps-de")
    widget.get_by_role("button", name="Senden").click()
    expect(widget.get_by_role("status")).to_have_text("Vielen Dank für Ihr Feedback!")
    context.close()

    context = browser.new_context(locale="sv-SE")
    page = context.new_page()
    page.goto(site.page(site.tag("nps")))
    widget = page.locator("hearken-nps")
    group = widget.get_by_role(
        "radiogroup", name="Hur troligt är det att du skulle rekommendera oss till en vän eller kollega?"
    )
    expect(group.get_by_role("radio", name="10", exact=True)).to_have_accessible_description("Mycket troligt")
    group.get_by_role("radio", name="6", exact=True).check()
    widget.get_by_role("button", name="Skicka").click()
    expect(widget.get_by_role("status")).to_have_text("Tack för din feedback!")
    screenshot(page, "nps-sv-thanks")
    context.close()
    assert sorted(
        r["value"]["value"] for r in site.server.read(site.tenant, "ratings/typed?type=nps")["ratings"]
    ) == [6, 8]
