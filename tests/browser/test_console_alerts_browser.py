"""The Alerts tab in Chromium: a page whose helpful share fell shows one alert with its before and after,
its chart (with a text alternative) and an example linked to its item, beside a new theme's surge with its
items; "Acknowledge" marks it
(screenshot under test-artifacts/console/)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.alerts.checks import check_project
from app.db.models import FeedbackEmbedding, FeedbackItem, Project, Theme
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tests import databases
from tests.alert_counts import count_answers
from tests.browser.console_harness import page, screenshot
from tests.browser.harness import LiveServer
from tests.console_helpers import PASSWORD, add_user

__all__ = ["page"]

PAGE = "/docs/install"


@pytest.fixture(scope="module")
def alerts_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("alerts-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start({"HEARKEN_PERIODIC_JOBS": "off"})
    yield server
    server.stop()


def test_the_alerts_tab_shows_the_evidence(page: Page, alerts_server: LiveServer) -> None:
    tenant = alerts_server.tenant(origins=("https://docs.example",))
    alerts_server._arrange(lambda maker: add_user(maker, tenant.org_id, "ann@alerts.example", "member"))

    async def drop(maker: async_sessionmaker[AsyncSession]) -> None:
        now = utc_now()
        async with unit_of_work(maker) as session:
            for back in range(2, 30):
                answers = {("helpful", 1): 32, ("helpful", 0): 8}
                await count_answers(
                    session, tenant.project.id, now - timedelta(days=back), answers, path=PAGE
                )
            answers = {("helpful", 1): 12, ("helpful", 0): 48}
            await count_answers(session, tenant.project.id, now, answers, path=PAGE)
            session.add(
                FeedbackItem(project_id=tenant.project.id, message="The install step fails", path=PAGE)
            )
            theme = Theme(
                id=uuid7(), project_id=tenant.project.id, label="Login times out every morning",
                name="Login, times out", keywords=[],
            )  # fmt: skip
            session.add(theme)
            for minutes in range(10, 70, 10):  # a new theme: six items in the last hour
                item = FeedbackItem(
                    id=uuid7(),
                    project_id=tenant.project.id,
                    message=f"Login timed out again ({minutes})",
                    created_at=now - timedelta(minutes=minutes),
                )
                session.add(item)
                await session.flush()
                session.add(FeedbackEmbedding(id=item.id, project_id=tenant.project.id, theme_id=theme.id))
        async with unit_of_work(maker) as session:
            await check_project(session, await session.get_one(Project, tenant.project.id), now)

    alerts_server._arrange(drop)
    base = alerts_server.base_url
    page.goto(base + "/login")
    page.get_by_label("Email").fill("ann@alerts.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/projects/{tenant.project_id}")
    page.get_by_role("link", name="Alerts").click()
    heading = page.get_by_role("heading", name=f"Helpful on {PAGE} fell from 80 % to 20 %")
    expect(heading).to_be_visible()
    expect(page.get_by_role("img", name="Helpful share")).to_be_visible()
    expect(page.get_by_role("link", name="The install step fails")).to_be_visible()
    surge = page.get_by_role("article", name="Login, times out: 6 items in 3 hours, against none in")
    expect(surge.get_by_role("img")).to_be_visible()
    expect(surge.get_by_text("“Login times out every morning”")).to_be_visible()  # the label, for context
    expect(surge.get_by_role("link", name="Login timed out again (10)")).to_be_visible()
    screenshot(page, "alerts-tab")
    drop = page.get_by_role("article", name=f"Helpful on {PAGE} fell from 80 % to 20 %")
    drop.get_by_role("button", name="Acknowledge").click()
    expect(page.get_by_text("acknowledged by ann@alerts.example")).to_be_visible()
