"""GET /demo shows every widget working against this server with a demo project, once set up."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.harness import LiveServer


def test_demo_page_widgets_store_and_show_submissions(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.base_url}/demo")
    screenshot(page, "demo-setup")
    page.get_by_role("button", name="Set up the demo project").click()
    helpful = page.locator("hearken-helpful")
    expect(helpful.get_by_role("button", name="Yes")).to_be_visible()
    expect(page.locator("hearken-star").get_by_role("radio")).to_have_count(5)
    expect(page.locator("hearken-nps").get_by_role("radio")).to_have_count(11)
    expect(page.get_by_role("button", name="Contact Us")).to_be_visible()
    expect(page.get_by_role("button", name="Feedback")).to_be_visible()
    screenshot(page, "demo")

    helpful.get_by_role("button", name="No").click()
    helpful.get_by_role("button", name="Missing information").click()
    expect(helpful.get_by_role("status")).to_have_text("Thank you for your feedback!")
    helpful.get_by_role("button", name="Tell us more").click()
    expect(page.get_by_role("dialog", name="Send feedback")).to_be_visible()
    page.keyboard.press("Escape")
    nps = page.locator("hearken-nps")
    nps.get_by_role("radio", name="9", exact=True).check()
    nps.get_by_role("button", name="Send").click()
    expect(nps.get_by_role("status")).to_have_text("Thank you for your feedback!")

    page.goto(f"{live_server.base_url}/demo?lang=de")
    expect(page.locator("hearken-helpful").get_by_role("button", name="Ja")).to_be_visible()
    expect(page.get_by_role("cell", name="helpful").first).to_be_visible()  # the stored ratings are listed
    expect(page.get_by_role("cell", name="no (missing_information)")).to_be_visible()
    expect(page.get_by_role("cell", name="9 of 10")).to_be_visible()
    screenshot(page, "demo-de")
