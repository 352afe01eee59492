"""What the console's browser tests add to the shared fixtures of tests/browser/conftest.py: the live
server's address under the console's name, a page that may use the clipboard, accepts confirm() dialogs
and comes from a client address of its own, and full-page screenshots (optionally at a phone's width)
under test-artifacts/console/."""

from __future__ import annotations

import ipaddress
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.harness import LiveServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"
_CLIENTS = (ipaddress.IPv4Address("198.18.0.1") + n for n in itertools.count())
"""Benchmarking addresses (RFC 2544), one per page: the server trusts 127.0.0.1 as its proxy."""


@pytest.fixture
def console_server(live_server: LiveServer) -> str:
    return live_server.base_url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 860}, extra_http_headers={"X-Forwarded-For": str(next(_CLIENTS))}
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    tab.on("dialog", lambda dialog: dialog.accept())
    yield tab
    context.close()


def screenshot(page: Page, name: str, *, width: int | None = None) -> Path:
    """A full-page screenshot (optionally at a phone's width)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if width:
        page.set_viewport_size({"width": width, "height": 800})
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if width:
        page.set_viewport_size({"width": 1280, "height": 860})
    return path
