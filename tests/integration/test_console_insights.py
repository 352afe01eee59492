"""Insights in the console: Similar feedback with "Mark as duplicate" on an item, "Search by meaning" in
the inbox, and the Themes tab with "Refresh themes" and its links to the inbox filtered by theme."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.transactions import unit_of_work
from app.insights.engine import configure
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant
from tests.integration.test_insights import CRASH_DE, CRASH_EN, MESSAGES


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, secret_key="test-secret-key-for-the-suite", embeddings="local")


async def seed(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant) -> dict[str, str]:
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        return {message: str((await items.create(message=message)).id) for message in MESSAGES}


async def eventually(console: Console, url: str, text: str, **kwargs: object) -> str:
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    while True:
        page = (await console.get(url, **kwargs)).text  # type: ignore[arg-type]
        if text in page:
            return page
        assert time.monotonic() < deadline, page
        await asyncio.sleep(0.5)


async def test_similar_feedback_duplicates_search_by_meaning_and_themes(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    ids = await seed(session_maker, tenant)
    await add_user(session_maker, tenant.org_id, "triage@org-a.example", "member")
    await console.login("triage@org-a.example")
    base = f"/projects/{tenant.project_id}"
    # Every vector written: the last item sees the 5 others it is compared with.
    await eventually(console, f"{base}/feedback/{ids[MESSAGES[-1]]}", "% similar", params={})
    detail = await eventually(console, f"{base}/feedback/{ids[CRASH_DE]}", CRASH_EN)
    assert "Similar feedback" in detail and "Mark as duplicate" in detail
    marked = await console.htmx_post(
        f"{base}/feedback/{ids[CRASH_DE]}/duplicate", {"duplicate_of": ids[CRASH_EN]}
    )
    assert marked.status_code == 200 and "Duplicate of" in marked.text and "Not a duplicate" in marked.text
    assert re.search(r'id="detail-status">Closed<', marked.text)
    original = (await console.get(f"{base}/feedback/{ids[CRASH_EN]}")).text
    assert re.search(r'id="detail-duplicate-count">1<', original)
    refused = await console.htmx_post(
        f"{base}/feedback/{ids[CRASH_DE]}/duplicate", {"duplicate_of": ids[CRASH_DE]}
    )
    assert refused.status_code == 400 and "cannot be a duplicate of itself" in refused.text

    inbox = (
        await console.get(
            f"{base}/feedback", params={"search": "app keeps closing on startup", "meaning": "true"}
        )
    ).text
    assert "Search by meaning" in inbox
    listed = re.findall(r'href="/projects/[^/]+/feedback/([0-9a-f-]{36})"', inbox)
    assert listed and listed[0] in {
        ids[CRASH_EN],
        ids[CRASH_DE],
        ids["Appen kraschar direkt när jag öppnar den"],
    }, listed

    themes_page = (await console.get(f"{base}/themes")).text
    assert "Refresh themes" in themes_page
    refreshed = await console.post(f"{base}/themes/refresh", {}, follow_redirects=False)
    assert refreshed.status_code == 303
    page = await eventually(console, f"{base}/themes", "Show feedback")
    link = re.search(r'href="(/projects/[^"]+/feedback\?theme=[0-9a-f-]{36})"', page)
    assert link is not None
    assert ">Share</th>" in page and ">Trend</th>" in page and ">Confidence</th>" in page
    assert 'class="trend trend-new">new<' in page  # every theme is new: nothing came before
    filtered = (await console.get(link.group(1))).text
    assert 'id="theme-filter"' in filtered and "Show all feedback" in filtered


async def test_turned_off_the_console_says_so(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], settings: Settings
) -> None:
    configure(
        replace(settings, embeddings="off")
    )  # this process's insights, as HEARKEN_EMBEDDINGS=off makes them
    ids = await seed(session_maker, tenant)
    await add_user(session_maker, tenant.org_id, "triage@org-a.example", "member")
    await console.login("triage@org-a.example")
    base = f"/projects/{tenant.project_id}"
    assert "Themes are unavailable" in (await console.get(f"{base}/themes")).text
    detail = (await console.get(f"{base}/feedback/{ids[CRASH_EN]}")).text
    assert "Similar feedback is unavailable" in detail
    inbox = (await console.get(f"{base}/feedback", params={"search": "crash", "meaning": "true"})).text
    assert "Search by meaning is unavailable" in inbox


async def test_similar_feedback_shows_no_spam(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 10: an item marked spam after its vector was written showed in an item's Similar
    feedback; it stays in the Spam view only."""
    spam_crash = "The Android app crashes as soon as I open it. Cheap pills at pills.example"
    ids = await seed(session_maker, tenant)
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        spam = await items.create(message=spam_crash)
    await add_user(session_maker, tenant.org_id, "triage@org-a.example", "member")
    await console.login("triage@org-a.example")
    base = f"/projects/{tenant.project_id}"
    await eventually(console, f"{base}/feedback/{ids[CRASH_DE]}", spam_crash)  # its vector is written
    async with unit_of_work(session_maker) as session:  # as the API and MCP mark it
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        await items.update(await items.get(spam.id), {"spam": True})
    detail = (await console.get(f"{base}/feedback/{ids[CRASH_DE]}")).text
    assert CRASH_EN in detail and "Similar feedback" in detail
    assert spam_crash not in detail
