"""The ideas portal in Chromium, against a server with the local embedding model: typing a suggestion in
German or Swedish offers the English idea that means the same; "Vote" and "Remove vote"; the embed is
framed by an allowed origin and refused by another. Screenshots under test-artifacts/browser/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from app.db.identity_secret import user_signature
from tests import databases
from tests.browser.conftest import screenshot
from tests.browser.harness import HostPages, LiveServer
from tests.factories import Tenant
from tests.local_http import local_http

SIMILAR_WAIT = 180.0
"""Seconds the local model may take to load and embed the ideas on a busy machine."""


@pytest.fixture(scope="module")
def portal_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("portal-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start({"HEARKEN_EMBEDDINGS": "local"})
    yield server
    server.stop()


@pytest.fixture(scope="module")
def board(portal_server: LiveServer, host_pages: HostPages) -> tuple[Tenant, str]:
    tenant = portal_server.tenant(origins=(host_pages.origin,))
    api = f"{portal_server.base_url}/api/v1/projects/{tenant.project_id}"
    settings = {"enabled": True, "title": "Acme ideas", "intro": "What should we build next?",
                "accent_color": "#0b7a75", "auto_approve": True}  # fmt: skip
    assert local_http.patch(api, json={"portal": settings}, headers=tenant.headers).status_code == 200
    secret = local_http.post(f"{api}/identity-secret", headers=tenant.headers).json()["secret"]
    for title, body in (
        ("Dark mode", "A dark theme for working at night"),
        ("Export to CSV", "Download all my data as a spreadsheet"),
        ("Slack notifications", "Post new feedback to a Slack channel"),
    ):
        made = local_http.post(f"{api}/ideas", json={"title": title, "body": body}, headers=tenant.headers)
        assert made.status_code == 201
    similar = f"{portal_server.base_url}/p/{tenant.project_key}/similar"
    deadline = time.monotonic() + SIMILAR_WAIT
    while (
        "Export to CSV"
        not in local_http.get(similar, params={"text": "Slack"}).text
        + local_http.get(similar, params={"text": "CSV spreadsheet export"}).text
    ):  # every idea embedded once the last one is
        assert time.monotonic() < deadline, "the ideas were not embedded in time"
        time.sleep(0.5)
    return tenant, secret


def _signed(secret: str, user: str, **params: str) -> str:
    return urlencode({"user": user, "sig": user_signature(secret, user), **params})


@pytest.fixture(scope="module")
def chromium_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 800})
    page = context.new_page()
    yield page
    context.close()


def test_suggest_offers_similar_ideas_across_languages_and_votes(
    chromium_page: Page, portal_server: LiveServer, board: tuple[Tenant, str]
) -> None:
    page = chromium_page
    tenant, secret = board
    base = f"{portal_server.base_url}/p/{tenant.project_key}"
    page.goto(f"{base}/suggest?{_signed(secret, 'ann', lang='de', name='Ann')}")
    page.get_by_label("Titel").fill("Dunkler Modus für die Nacht")
    similar = page.locator("#similar")
    expect(similar.get_by_role("link", name="Dark mode")).to_be_visible(timeout=15_000)
    expect(similar).to_contain_text("Ähnliche Ideen")
    screenshot(page, "portal-suggest-similar-de")

    page.goto(f"{base}/suggest?lang=sv")
    page.get_by_label("Titel").fill("Exportera all data till ett kalkylark")
    expect(page.locator("#similar").get_by_role("link", name="Export to CSV")).to_be_visible(timeout=15_000)

    page.locator("#similar").get_by_role("link", name="Export to CSV").click()
    page.get_by_role("button", name="Rösta").click()
    expect(page.get_by_role("button", name="Ta bort röst")).to_be_visible()
    expect(page.locator(".count strong")).to_have_text("1")
    page.goto(f"{base}?lang=en")
    expect(page.get_by_role("button", name="Remove vote")).to_have_count(1)
    screenshot(page, "portal-list-voted")
    page.get_by_role("button", name="Remove vote").click()
    expect(page.get_by_role("button", name="Vote")).to_have_count(3)


def test_embed_is_framed_by_allowed_origins_only(
    chromium_page: Page, portal_server: LiveServer, host_pages: HostPages, board: tuple[Tenant, str]
) -> None:
    page = chromium_page
    tenant, _ = board
    other = portal_server.project(tenant, origins=("https://elsewhere.example",))
    api = f"{portal_server.base_url}/api/v1/projects/{other.project_id}"
    local_http.patch(api, json={"portal": {"enabled": True, "title": "Other ideas"}}, headers=tenant.headers)
    frames = (
        f'<iframe id="allowed" title="Ideas" width="900" height="320" '
        f'src="{portal_server.base_url}/p/{tenant.project_key}?embed=true&lang=en"></iframe>'
        f'<iframe id="refused" title="Other" width="900" height="200" '
        f'src="{portal_server.base_url}/p/{other.project_key}?embed=true&lang=en"></iframe>'
    )
    page.goto(host_pages.add("/portal-embed.html", f"<!doctype html><title>Host</title>{frames}"))
    allowed = page.frame_locator("#allowed")
    expect(allowed.get_by_role("link", name="Dark mode")).to_be_visible()
    page.wait_for_load_state("load")
    refused = page.locator("#refused").element_handle().content_frame()
    assert refused is not None
    # Chromium replaces a frame its frame-ancestors refuse with an error page of its own
    assert not refused.url.startswith(portal_server.base_url), refused.url
    assert "Other ideas" not in refused.content()
    screenshot(page, "portal-embed")
