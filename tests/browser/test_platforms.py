"""The documentation platforms' recipes (docs/platforms/), each built here from the platform's own
package into a real site, served locally and driven in Chromium: two pages rated, the second reached by
the platform's own navigation, store two ratings with their paths.

The tools install into the user's cache folder, `~/.cache/hearken-test-sites` (a Python virtualenv from
docs/platforms/requirements.txt; each npm site's packages in a copy of the site), and builds are cached
there by the hash of their sources, so only the first run on a machine pays for them: a site whose build
is cached is not installed at all.
Each install and build prints its time (`-s`) and every time measured is written to
test-artifacts/platform-build-times.json."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.built_sites import (
    BUILD_TIMES,
    CACHE,
    StaticSite,
    cached_build,
    digest,
    locked,
    npm_workspace,
    run,
)
from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.harness import REPO_ROOT, LiveServer
from tests.factories import Tenant

PLATFORMS = REPO_ROOT / "docs" / "platforms"
PACKAGE_DIST = REPO_ROOT / "packages" / "widgets" / "dist"  # make setup builds it
WIDGETS_PACKAGE = (PACKAGE_DIST.parent / "package.json", PACKAGE_DIST)  # installed into the sites as a copy
REQUIREMENTS = PLATFORMS / "requirements.txt"
VENV = CACHE / "venv"
THANKS = "Thank you for your feedback!"
# What the example sites are built with, and what the server puts in their place for this run.
URL_PLACEHOLDER = "https://hearken.example.com"
# A clean checkout installs and builds each platform inside its test: minutes, not the usual five.
pytestmark = pytest.mark.timeout(1800)
KEY_PLACEHOLDER = "HEARKEN-PROJECT-KEY"
SITE_PLACEHOLDER = "https://docs.example.com"


@pytest.fixture(scope="module", autouse=True)
def build_times() -> Iterator[None]:
    yield
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "platform-build-times.json").write_text(json.dumps(BUILD_TIMES, indent=2))


def python_tools() -> Path:
    """The virtualenv with the Python platforms (MkDocs Material, Sphinx and Furo); its bin folder."""
    stamp = VENV / ".hearken-installed"
    wanted = digest(REQUIREMENTS)
    with locked("venv"):
        if not (stamp.exists() and stamp.read_text() == wanted):
            started = time.monotonic()
            run([sys.executable, "-m", "venv", "--clear", str(VENV)], REPO_ROOT)
            run([str(VENV / "bin" / "pip"), "install", "--quiet", "-r", str(REQUIREMENTS)], REPO_ROOT)
            stamp.write_text(wanted)
            BUILD_TIMES["pip install (platforms)"] = time.monotonic() - started
            print(f"\npip install (platforms): {BUILD_TIMES['pip install (platforms)']:.1f} s")
    return VENV / "bin"


def serve(folder: Path, live_server: LiveServer) -> tuple[StaticSite, Tenant]:
    site = StaticSite(folder)
    tenant = live_server.tenant(origins=(site.origin,))
    site.replace = {
        URL_PLACEHOLDER: live_server.base_url,
        KEY_PLACEHOLDER: str(tenant.project_key),
        SITE_PLACEHOLDER: site.origin,  # the site's own address (MkDocs' sitemap tells instant navigation)
    }
    return site, tenant


def rate(widget: Locator, answer: str) -> None:
    expect(widget.get_by_text("Was this page helpful?")).to_be_visible()
    widget.get_by_role("button", name=answer).click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)


def paths_rated(live_server: LiveServer, tenant: Tenant) -> list[tuple[str, bool]]:
    ratings = live_server.read(tenant, "ratings/typed?type=helpful")["ratings"]
    return sorted((r["path"], r["value"]["value"]) for r in ratings)


def test_mkdocs_material_with_instant_navigation(page: Page, live_server: LiveServer) -> None:
    source = PLATFORMS / "mkdocs"
    tools = python_tools()

    def build(out: Path) -> None:
        config = str(source / "mkdocs.yml")
        run([str(tools / "mkdocs"), "build", "--quiet", "-f", config, "-d", str(out)], source)

    site, tenant = serve(cached_build("mkdocs", [source], build), live_server)
    try:
        page.clock.install()
        page.goto(site.origin + "/")
        widget = page.locator("article hearken-helpful")  # after the article's text, inside it
        rate(widget, "Yes")
        page.evaluate("window.loadedOnce = true")  # gone if the next page were loaded anew

        page.get_by_role("link", name="guide", exact=True).click()
        expect(page.get_by_role("heading", name="Guide", exact=True)).to_be_visible()
        assert page.evaluate("window.loadedOnce") is True  # instant navigation: no page load
        page.clock.fast_forward(11_000)  # past the widget's ten-second pause between ratings
        expect(page.locator("hearken-helpful")).to_have_count(1)
        screenshot(page, "platform-mkdocs")
        rate(page.locator("article hearken-helpful"), "No")
        assert paths_rated(live_server, tenant) == [("/", True), ("/guide/", False)]
    finally:
        site.stop()


def test_sphinx_with_furo(page: Page, live_server: LiveServer) -> None:
    # Furo has no client-side navigation between pages: a link loads the next page, and within a page
    # its table of contents changes only the hash, which keeps the answer.
    source = PLATFORMS / "sphinx"
    tools = python_tools()

    def build(out: Path) -> None:
        run([str(tools / "sphinx-build"), "-q", "-b", "html", str(source), str(out)], source)

    site, tenant = serve(cached_build("sphinx", [source], build), live_server)
    try:
        page.goto(site.origin + "/")
        widget = page.locator("article[role=main] > hearken-helpful:last-child")
        rate(widget, "Yes")
        page.locator("article a.headerlink[href='#details']").click(force=True)  # the heading's own link
        expect(page).to_have_url(site.origin + "/#details")
        expect(widget.get_by_role("status")).to_have_text(THANKS)  # same page, same answer

        page.locator("article").get_by_role("link", name="Guide").first.click()
        expect(page.get_by_role("heading", name="Guide")).to_be_visible()
        screenshot(page, "platform-sphinx-furo")
        rate(page.locator("article[role=main] > hearken-helpful:last-child"), "No")
        assert paths_rated(live_server, tenant) == [("/", True), ("/guide.html", False)]
    finally:
        site.stop()


def test_vitepress(page: Page, live_server: LiveServer) -> None:
    source = PLATFORMS / "vitepress"

    def build(out: Path) -> None:
        with npm_workspace(source, copies_of=WIDGETS_PACKAGE) as work:
            run([str(work / "node_modules" / ".bin" / "vitepress"), "build", ".", "--outDir", str(out)], work)

    sources = [source / ".vitepress" / "config.mjs", source / ".vitepress" / "theme", *source.glob("*.md")]
    site, tenant = serve(cached_build("vitepress", [*sources, PACKAGE_DIST], build), live_server)
    try:
        page.clock.install()
        page.goto(site.origin + "/")
        widget = page.locator(".VPDocFooter hearken-helpful")  # after the text, before edit link, next page
        rate(widget, "Yes")
        page.evaluate("window.loadedOnce = true")  # gone if the next page were loaded anew

        page.locator("main").get_by_role("link", name="guide").click()
        expect(page.get_by_role("heading", name="Guide", level=1)).to_be_visible()
        assert page.evaluate("window.loadedOnce") is True  # VitePress's router: no page load
        page.clock.fast_forward(11_000)  # past the widget's ten-second pause between ratings
        expect(page.locator("hearken-helpful")).to_have_count(1)
        screenshot(page, "platform-vitepress")
        rate(page.locator(".VPDocFooter hearken-helpful"), "No")
        assert paths_rated(live_server, tenant) == [("/", True), ("/guide.html", False)]
    finally:
        site.stop()


def test_docusaurus(page: Page, live_server: LiveServer) -> None:
    source = PLATFORMS / "docusaurus"

    def build(out: Path) -> None:
        with npm_workspace(source, copies_of=WIDGETS_PACKAGE) as work:
            run([str(work / "node_modules" / ".bin" / "docusaurus"), "build", "--out-dir", str(out)], work)

    sources = [source / "docusaurus.config.js", source / "docs", source / "src", PACKAGE_DIST]
    site, tenant = serve(cached_build("docusaurus", sources, build), live_server)
    try:
        page.clock.install()
        page.goto(site.origin + "/")
        widget = page.locator("article hearken-helpful")  # after the doc's text, before its footer
        rate(widget, "Yes")
        page.evaluate("window.loadedOnce = true")  # gone if the next page were loaded anew

        page.locator("article").get_by_role("link", name="guide").click()
        expect(page.get_by_role("heading", name="Guide", level=1)).to_be_visible()
        assert page.evaluate("window.loadedOnce") is True  # Docusaurus's router: no page load
        page.clock.fast_forward(11_000)  # past the widget's ten-second pause between ratings
        expect(page.locator("hearken-helpful")).to_have_count(1)
        screenshot(page, "platform-docusaurus")
        rate(page.locator("article hearken-helpful"), "No")
        assert paths_rated(live_server, tenant) == [("/", True), ("/guide", False)]
    finally:
        site.stop()
