"""The console's Ideas tab in Chromium, against a server with insights on: the portal settings on the
project page, approving a pending suggestion, a row's status set from its select, merging a German
suggestion into the English idea it repeats (offered by meaning), an idea's status and response, a
changelog entry naming it, and a feedback item linked to it; axe-clean pages (screenshots under
test-artifacts/console/)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Project
from app.dependencies import build
from app.ideas.people import Person
from app.ideas.service import Ideas
from tenants.scope import operator_scope
from tests import databases
from tests.browser.accessibility import axe_violations
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import SECRET_KEY, LiveServer
from tests.console_helpers import PASSWORD, add_user
from tests.local_http import local_http

__all__ = ["page"]

DARK = ("Dark mode", "A dark theme for the dashboard, easier on the eyes at night.")
DUNKEL = ("Dunkelmodus", "Ein dunkles Design für das Dashboard, angenehmer für die Augen in der Nacht.")


@pytest.fixture(scope="module")
def ideas_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("ideas-console-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start({"HEARKEN_EMBEDDINGS": "local"})
    yield server
    server.stop()


def test_the_team_runs_its_ideas_in_the_console(page: Page, ideas_server: LiveServer) -> None:
    tenant = ideas_server.tenant(origins=("https://app.example",))
    ideas_server._arrange(lambda maker: add_user(maker, tenant.org_id, "ann@ideas.example", "owner"))
    api = f"{ideas_server.base_url}/api/v1/projects/{tenant.project_id}"
    created = {}
    for (title, body), status in ((DARK, "open"), (DUNKEL, "pending"), (("Slack alerts", ""), "open")):
        answer = local_http.post(
            f"{api}/ideas", json={"title": title, "body": body, "status": status}, headers=tenant.headers
        )
        assert answer.status_code == 201, answer.text
        created[title] = answer.json()["id"]

    async def votes(maker: async_sessionmaker[AsyncSession]) -> None:
        async with maker() as session, session.begin():
            project = await session.get_one(Project, tenant.project.id)
            settings = Settings(database_url=ideas_server.database_url, secret_key=SECRET_KEY)
            ideas = build(Ideas, session, operator_scope(tenant.org_id), project, settings)
            for name in ("Maja", "Lars"):
                person = Person.of_user(name.lower(), name=name, email=f"{name.lower()}@example.org")
                await ideas.vote(await ideas.get(created[DARK[0]]), person)

    ideas_server._arrange(votes)

    base = ideas_server.base_url
    page.goto(base + "/login")
    page.get_by_label("Email").fill("ann@ideas.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # the portal's settings, on the project page
    page.goto(f"{base}/projects/{tenant.project_id}")
    portal = page.locator("#portal-settings")
    portal.get_by_label("Portal on").check()
    portal.get_by_label("Title").fill("Acme ideas")
    portal.get_by_label("Intro").fill("Tell us what to build next.")
    portal.get_by_label("Also anyone who confirms an email address").check()
    portal.get_by_role("button", name="Save portal settings").click()
    expect(portal.get_by_role("status")).to_have_text("Saved.")
    expect(page.locator("#portal-link")).to_have_attribute("href", f"/p/{tenant.project_key}")
    settings = local_http.get(api, headers=tenant.headers).json()["portal"]
    assert (settings["enabled"], settings["title"], settings["voting"]) == (True, "Acme ideas", "email")
    portal.scroll_into_view_if_needed()
    screenshot(page, "ideas-portal-settings")
    assert axe_violations(page) == []

    # the pending queue
    page.get_by_role("link", name="Ideas", exact=True).first.click()
    queue = page.locator("#pending-" + created[DUNKEL[0]])
    expect(queue).to_contain_text(DUNKEL[0])
    screenshot(page, "ideas-board")
    screenshot(page, "ideas-board-phone", width=390)
    assert axe_violations(page) == []
    queue.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status")).to_contain_text("is open")
    expect(page.locator(".queue-list")).to_have_count(0)

    def status(title: str) -> str:
        return local_http.get(f"{api}/ideas/{created[title]}", headers=tenant.headers).json()["status"]

    assert status(DUNKEL[0]) == "open"

    # a row's status, from its select
    page.get_by_label("Status of Slack alerts").select_option(label="Planned")
    expect(page.locator(f"#idea-row-{created['Slack alerts']}").get_by_role("status")).to_have_text("Saved")
    assert status("Slack alerts") == "planned"

    # merging the German suggestion into the English idea it repeats, offered by meaning
    page.get_by_role("link", name=DUNKEL[0]).click()
    similar = page.get_by_role("list", name="Similar ideas")
    deadline = time.monotonic() + 240  # the ideas are embedded in the background
    while similar.get_by_role("link", name=DARK[0]).count() == 0:
        assert time.monotonic() < deadline, "no similar idea offered"
        time.sleep(1)
        page.reload()
    screenshot(page, "ideas-merge-suggested")
    assert axe_violations(page) == []
    similar.get_by_role("button", name="Merge into this").first.click()
    expect(page.get_by_role("heading", name=DARK[0], level=1)).to_be_visible()
    expect(page.get_by_role("status").first).to_contain_text("Merged")
    expect(page.locator("#idea-votes")).to_have_text("2")
    merged = local_http.get(f"{api}/ideas/{created[DUNKEL[0]]}", headers=tenant.headers).json()
    assert merged["merged_into"] == created[DARK[0]]

    # status and the team's response
    page.get_by_label("Status", exact=True).select_option(label="In progress")
    page.get_by_label("Response", exact=True).fill("We are on it: expect it in May.")
    page.get_by_label("Tags").fill("UI, themes")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#idea-detail").get_by_role("status")).to_have_text("Saved.")
    page.get_by_role("button", name="Pin", exact=True).click()
    expect(page.get_by_role("button", name="Unpin")).to_be_visible()
    dark = local_http.get(f"{api}/ideas/{created[DARK[0]]}", headers=tenant.headers).json()
    assert (dark["status"], dark["response"], dark["tags"], dark["pinned"]) == (
        "in_progress",
        "We are on it: expect it in May.",
        ["themes", "ui"],
        True,
    )
    expect(page.get_by_text("maja@example.org")).to_be_visible()
    screenshot(page, "ideas-detail")
    screenshot(page, "ideas-detail-phone", width=390)

    # the changelog names the idea it shipped
    page.get_by_role("link", name="Ideas", exact=True).first.click()
    page.get_by_role("navigation", name="Ideas").get_by_role("link", name="Changelog").click()
    page.get_by_label("Title").fill("Dark mode is here")
    page.get_by_label("What changed").fill("Switch it on under **Settings**.")
    page.get_by_role("checkbox", name=re.compile(f"^{DARK[0]}")).check()
    page.get_by_role("button", name="Publish now").click()
    row = page.get_by_role("row", name=re.compile("Dark mode is here"))
    expect(row.get_by_role("link", name=DARK[0], exact=True)).to_be_visible()
    entries = local_http.get(f"{api}/changelog", headers=tenant.headers).json()["entries"]
    assert entries[0]["idea_ids"] == [created[DARK[0]]] and entries[0]["published_at"]
    screenshot(page, "ideas-changelog")
    assert axe_violations(page) == []

    # a feedback item linked to the idea as demand
    item = local_http.post(f"{api}/feedback", json={"message": "Too bright at night"}, headers=tenant.headers)
    page.goto(f"{base}/projects/{tenant.project_id}/feedback/{item.json()['id']}")
    page.get_by_label("Existing idea").select_option(label=f"{DARK[0]} (2 votes)")
    page.get_by_role("button", name="Link to idea").click()
    expect(page.locator("#linked-idea")).to_contain_text(DARK[0])
    screenshot(page, "ideas-feedback-link")
    assert axe_violations(page) == []
    assert local_http.get(f"{api}/ideas/{created[DARK[0]]}", headers=tenant.headers).json()["demand"] == 1
