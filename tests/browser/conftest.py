"""Browser-test fixtures: a real Hearken server, a host page server on another origin, and Chromium.

Reusable by every browser test: `live_server` (LiveServer: base_url, tenant(), project(), read()),
`host_pages` (HostPages: origin, add()), `browser` (Debian's Chromium through Playwright's sync API),
`page` (a fresh context per test; screenshot() writes to test-artifacts/browser/), and `site` (a customer
site on the host origin with its own project, for widget pages).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests import databases
from tests.browser.harness import HostPages, LiveServer
from tests.browser.widget_pages import Site
from tests.services import CHROMIUM, CHROMIUM_ARGS, require_chromium

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests are marked so, and each module's run on one worker (`make test` schedules by
    xdist_group): its Chromium is launched once, not once on every worker that takes one of its tests."""
    for item in items:
        path = item.path.as_posix()
        if "tests/browser/" in path:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group(path.rsplit("/", 1)[-1]))


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("live-server")
    server = LiveServer(database_url=databases.sqlite_copy(sqlite_template, folder), folder=folder)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def host_pages() -> Iterator[HostPages]:
    pages = HostPages()
    pages.start()
    yield pages
    pages.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"uncaught errors on the page: {errors}"


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=path)
    return path


@pytest.fixture
def site(live_server: LiveServer, host_pages: HostPages) -> Site:
    """A customer site on the host origin with a fresh project that allows that origin."""
    return Site(live_server, host_pages, live_server.tenant(origins=(host_pages.origin,)))
