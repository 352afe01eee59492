"""The console's data pages in Chromium: feedback typed in by hand and assigned, the downloads, delete
permanently, retention on the project page, the Privacy page's erase with its confirmation, and the
audit log. Screenshots go to test-artifacts/console/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.test_console_browser import sign_up

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser


def test_feedback_by_hand_downloads_erasure_and_audit_log(page: Page, console_server: str) -> None:
    base_url = console_server
    email = sign_up(page, base_url, org="Privacy Co")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Docs")
    page.get_by_role("button", name="Create project").click()
    expect(page.get_by_role("heading", name="Docs", level=1)).to_be_visible()
    page.get_by_label("Keep data for (days)").fill("90")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    screenshot(page, "20-project-retention")

    page.get_by_role("navigation", name="Project").get_by_role("link", name="Feedback").click()
    page.get_by_role("link", name="New feedback").click()
    page.get_by_label("Message").fill('Customer called: "=SUM(A1)" shows in the report')
    page.get_by_label("Type").select_option("Bug")
    screenshot(page, "21-feedback-new")
    page.get_by_role("button", name="Create feedback").click()
    expect(page.locator("#detail-status")).to_have_text("New")
    page.get_by_label("Assignee").select_option(label=email)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#detail-assignee")).to_have_text(email)
    expect(page.locator("#detail-status")).to_have_text("Assigned")
    expect(page.locator("ol.history")).to_contain_text(f"changed assignee from — to {email}")
    screenshot(page, "22-feedback-assigned")

    page.get_by_role("navigation", name="Project").get_by_role("link", name="Feedback").click()
    page.get_by_label("Type").select_option("Bug")
    expect(page.get_by_role("link", name="Download CSV")).to_have_attribute(
        "href", re.compile(r"type=Bug&format=csv$")
    )
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "'=SUM(A1)" not in text and '"Customer called: ""=SUM(A1)"" shows in the report"' in text
    screenshot(page, "23-feedback-downloads")

    page.get_by_role("link", name=re.compile("Customer called")).click()
    page.get_by_role("link", name="Delete permanently").click()
    screenshot(page, "24-delete-permanently")
    page.get_by_role("button", name="Delete permanently").click()
    expect(page.get_by_text("0 items")).to_be_visible()

    page.get_by_role("link", name="Privacy").click()
    page.get_by_label("Submitted by").fill("visitor-7")
    page.get_by_role("button", name="Erase").click()
    expect(
        page.get_by_text(
            "0 feedback items, 0 ratings, 0 contact messages, 0 conversations and 0 survey responses"
            " will be deleted"
        )
    ).to_be_visible()
    screenshot(page, "25-privacy-confirm")
    page.get_by_role("button", name="Confirm erasure").click()
    expect(page.get_by_text("Erased 0 feedback items")).to_be_visible()

    page.get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("cell", name="erasure.performed")).to_be_visible()
    expect(page.get_by_role("cell", name="project.updated")).to_be_visible()
    screenshot(page, "26-audit-log")
