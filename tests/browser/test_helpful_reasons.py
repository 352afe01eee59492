"""data-reasons: after No the helpful widget asks why; one tap on a reason stores the rating with the
reason's stable name in its metadata, whatever language the visitor saw it in."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site

REASONS = ["Inaccurate", "Hard to understand", "Missing information", "Code sample wrong", "Other"]


def test_no_asks_why_and_one_tap_stores_the_reason(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("helpful", reasons="true", version="2.4")))
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="No").click()
    why = widget.get_by_role("group", name="What was wrong?")
    expect(why.get_by_role("button")).to_have_text(REASONS)
    expect(why.get_by_role("button", name="Inaccurate")).to_be_focused()  # the keyboard carries on here
    expect(widget.get_by_role("button", name="Yes")).to_be_hidden()
    assert site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"] == []  # nothing yet
    screenshot(page, "helpful-reasons")

    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # "Missing information"
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    expect(why).to_be_hidden()
    expect(widget.get_by_role("button", name="Tell us more")).to_be_hidden()  # no data-show-comment-link
    [rating] = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert (rating["value"]["value"], rating["metadata"], rating["version"]) == (
        False,
        {"reason": "missing_information"},
        "2.4",
    )


def test_yes_stores_no_reason_and_the_comment_still_follows_a_reason(page: Page, site: Site) -> None:
    page.goto(site.page(site.tag("helpful", reasons="true", show_comment_link="true")))
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="No").click()
    widget.get_by_role("button", name="Code sample wrong").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    widget.get_by_role("button", name="Tell us more").click()
    widget.get_by_label("Tell us more").fill("The curl example lacks the API key header.")
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text("Comment sent. Thank you!")
    screenshot(page, "helpful-reason-then-comment")

    page.evaluate("HearkenHelpful.reset()")
    page.clock.install()
    page.clock.fast_forward(11_000)  # past the widget's ten-second pause between ratings
    widget.get_by_role("button", name="Yes").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!")
    ratings = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert sorted((r["value"]["value"], r.get("metadata")) for r in ratings) == [
        (False, {"reason": "code_sample_wrong"}),
        (True, None),
    ]
    [item] = site.server.read(site.tenant, "feedback")["feedback"]
    assert item["message"] == "The curl example lacks the API key header."


def test_reasons_in_german_and_swedish_store_the_same_names(browser: Browser, site: Site) -> None:
    for language, no, why, reasons, tap in [
        (
            "de",
            "Nein",
            "Was hat nicht gepasst?",
            ["Ungenau", "Schwer verständlich", "Fehlende Informationen", "Codebeispiel falsch", "Sonstiges"],
            "Schwer verständlich",
        ),
        (
            "sv",
            "Nej",
            "Vad var fel?",
            ["Felaktig", "Svår att förstå", "Information saknas", "Kodexemplet är fel", "Annat"],
            "Annat",
        ),
    ]:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        page.goto(site.page(site.tag("helpful", reasons="true", language=language)))
        widget = page.locator("hearken-helpful")
        widget.get_by_role("button", name=no).click()
        expect(widget.get_by_role("group", name=why).get_by_role("button")).to_have_text(reasons)
        screenshot(page, f"helpful-reasons-{language}")
        widget.get_by_role("button", name=tap).click()
        expect(widget.get_by_role("status")).not_to_be_empty()
        context.close()
    ratings = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert sorted(r["metadata"]["reason"] for r in ratings) == ["hard_to_understand", "other"]
