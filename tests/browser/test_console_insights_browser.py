"""Insights in Chromium: the Themes tab ("Refresh themes", a theme's link to the inbox filtered by it),
"Search by meaning" in the inbox, and "Similar feedback" with "Mark as duplicate" on an item, on a
desktop and at a phone's width (screenshots under test-artifacts/console/)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import databases
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import LiveServer
from tests.console_helpers import PASSWORD, add_user
from tests.integration.test_insights import CRASH_DE, CRASH_EN, MESSAGES
from tests.local_http import local_http

__all__ = ["page"]


@pytest.fixture(scope="module")
def insights_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("insights-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start({"HEARKEN_EMBEDDINGS": "local"})
    yield server
    server.stop()


def test_themes_search_by_meaning_and_similar_feedback(page: Page, insights_server: LiveServer) -> None:
    tenant = insights_server.tenant(origins=("https://docs.example",))
    insights_server._arrange(lambda maker: add_user(maker, tenant.org_id, "ann@insights.example", "member"))
    api = f"{insights_server.base_url}/api/v1/projects/{tenant.project_id}"
    ids = {}
    for message in MESSAGES:
        ids[message] = local_http.post(
            f"{api}/feedback", json={"message": message}, headers=tenant.headers
        ).json()["id"]
    deadline = time.monotonic() + 180
    while (
        len(
            local_http.get(
                f"{api}/feedback/{ids[MESSAGES[-1]]}/similar", params={"limit": 11}, headers=tenant.headers
            ).json()["items"]
        )
        < 11
    ):
        assert time.monotonic() < deadline
        time.sleep(0.5)

    base = insights_server.base_url
    page.goto(base + "/login")
    page.get_by_label("Email").fill("ann@insights.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/projects/{tenant.project_id}")
    page.get_by_role("link", name="Themes").click()
    page.get_by_role("button", name="Refresh themes").click()
    expect(page.get_by_role("status")).to_contain_text("recomputed")
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    while page.get_by_role("link", name="Show feedback").count() == 0:
        assert time.monotonic() < deadline
        time.sleep(1)
        page.reload()
    screenshot(page, "insights-themes")
    screenshot(page, "insights-themes-phone", width=390)
    for _ in range(3):  # a recomputation between the list and the click gives its themes new ids
        page.get_by_role("link", name="Show feedback").first.click()
        if page.locator("#theme-filter").count():
            break
        page.go_back()
        page.reload()
    expect(page.locator("#theme-filter")).to_be_visible()

    page.goto(f"{base}/projects/{tenant.project_id}/feedback")
    page.get_by_label("Search", exact=True).fill("my phone app shuts down right after starting")
    page.get_by_label("Search by meaning").check()
    page.get_by_role("button", name="Filter").click()
    first = page.locator("#feedback-list tbody a[href*='/feedback/']").first
    expect(first).to_have_text(re.compile("crash|stürzt|kraschar", re.IGNORECASE))
    screenshot(page, "insights-search-by-meaning")

    page.goto(f"{base}/projects/{tenant.project_id}/feedback/{ids[CRASH_DE]}")
    similar = page.get_by_role("region", name="Similar feedback")
    expect(similar.get_by_role("link", name=CRASH_EN)).to_be_visible()
    screenshot(page, "insights-similar-feedback")
    screenshot(page, "insights-similar-feedback-phone", width=390)
    similar.get_by_role("listitem").filter(has_text=CRASH_EN).get_by_role(
        "button", name="Mark as duplicate"
    ).click()
    expect(page.locator("#detail-status")).to_have_text("Closed")
    expect(page.get_by_role("button", name="Not a duplicate")).to_be_visible()
