"""The npm package (packages/widgets): its per-widget modules stay within a kilobyte of the served
scripts, and a real React app and a real Vue app, built by Vite with the package installed as a user
would, show the widgets, follow their router (a new route asks again, a survey's trigger sees the new
path) and clean up on unmount; its
TypeScript declarations pass tsc in a strict TypeScript app."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.built_sites import StaticSite, cached_build, npm_workspace, run
from tests.browser.conftest import screenshot
from tests.browser.harness import REPO_ROOT, LiveServer
from tests.factories import Tenant
from tests.local_http import local_http

PACKAGE = REPO_ROOT / "packages" / "widgets"
APPS = REPO_ROOT / "tests" / "browser" / "apps"
SERVED = REPO_ROOT / "static" / "widgets" / "v1"
INSTALLED = (PACKAGE / "package.json", PACKAGE / "dist")  # the package as the apps install it: a copy
WIDGETS = ["contact", "feedback", "helpful", "nps", "star"]
THANKS = "Thank you for your feedback!"


def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9))


@pytest.mark.parametrize("name", WIDGETS)
def test_each_widget_module_is_within_a_kilobyte_of_the_served_script(name: str) -> None:
    packaged, served = gzipped(PACKAGE / "dist" / f"{name}.js"), gzipped(SERVED / f"{name}.js")
    assert packaged <= served + 1024, f"{name}: package {packaged} B, script {served} B (gzip)"


def test_the_survey_module_is_within_a_kilobyte_of_the_served_loader_and_renderer() -> None:
    packaged = gzipped(PACKAGE / "dist" / "survey.js")
    served = gzipped(SERVED / "survey.js") + gzipped(SERVED / "survey-renderer.js")
    assert packaged <= served + 1024, f"survey: package {packaged} B, loader and renderer {served} B (gzip)"


def test_the_package_declares_its_types_and_entries() -> None:
    import json

    manifest = json.loads((PACKAGE / "package.json").read_text())
    for entry, target in manifest["exports"].items():
        assert (PACKAGE / target["default"]).is_file(), entry
        assert (PACKAGE / target["types"]).is_file(), entry
    index = (PACKAGE / "dist" / "index.d.ts").read_text()
    for name in [*WIDGETS, "survey"]:
        assert f"export function mount{name.capitalize()}(" in index


def test_the_types_check_in_a_typescript_app() -> None:
    # tsc (from the apps' package.json) over apps/typecheck/usage.tsx: the package's declarations compile
    # strictly with React and Vue, and every mistake marked there with @ts-expect-error is caught.
    with npm_workspace(APPS, copies_of=INSTALLED) as work:
        run([str(work / "node_modules" / ".bin" / "tsc"), "-p", "typecheck"], work)


def built_app(framework: str) -> Path:
    def build(out: Path) -> None:
        with npm_workspace(APPS, copies_of=INSTALLED) as work:
            vite = work / "node_modules" / ".bin" / "vite"
            run([str(vite), "build", framework, "--outDir", str(out)], work)

    sources = [APPS / framework, APPS / "package.json", PACKAGE / "dist"]
    return cached_build(f"{framework}-app", sources, build)


@pytest.fixture(scope="module", params=["react", "vue"])
def app(request: pytest.FixtureRequest, live_server: LiveServer) -> Iterator[tuple[StaticSite, Tenant]]:
    site = StaticSite(built_app(request.param), fallback="/index.html")
    tenant = live_server.tenant(origins=(site.origin,))
    site.files["/config.js"] = (
        f"window.hearkenConfig = {{projectKey: '{tenant.project_key}', apiUrl: '{live_server.base_url}'}};"
    )
    yield site, tenant
    site.stop()


def test_the_app_rates_a_route_then_another_after_its_router_moved(
    app: tuple[StaticSite, Tenant], live_server: LiveServer, page: Page, request: pytest.FixtureRequest
) -> None:
    site, tenant = app
    framework = request.node.callspec.params["app"]
    page.clock.install()
    page.goto(site.origin + "/")
    helpful = page.locator("hearken-helpful")
    expect(helpful.get_by_text(f"Was this {framework.capitalize()} page helpful?")).to_be_visible()
    helpful.get_by_role("button", name="Yes").click()
    expect(helpful.get_by_role("status")).to_have_text(THANKS)

    page.get_by_role("link", name="Guide").click()  # the app's router: no page load
    expect(page.get_by_role("heading", name="Guide")).to_be_visible()
    expect(helpful.get_by_role("button", name="Yes")).to_be_visible()  # asked again on the new route
    star = page.locator("hearken-star")
    expect(star.get_by_role("radio")).to_have_count(5)
    page.clock.fast_forward(11_000)  # past the widget's ten-second pause between ratings
    screenshot(page, f"package-{framework}-guide")
    helpful.get_by_role("button", name="No").click()
    expect(helpful.get_by_role("status")).to_have_text(THANKS)
    star.get_by_role("radio", name="4 stars").check()
    star.get_by_role("button", name="Send").click()
    expect(star.get_by_role("status")).to_have_text(THANKS)

    page.get_by_role("link", name="Home").click()
    expect(page.locator("hearken-star")).to_have_count(0)  # unmounted with its route, and removed
    expect(page.locator("hearken-helpful")).to_have_count(1)  # the layout's widget stays, alone
    assert page.evaluate("Object.keys(window).filter((name) => name.startsWith('Hearken'))") == []

    ratings = live_server.read(tenant, "ratings/typed?type=helpful")["ratings"]
    assert sorted((r["path"], r["value"]["value"]) for r in ratings) == [("/", True), ("/guide", False)]
    [stars] = live_server.read(tenant, "ratings/typed?type=star")["ratings"]
    assert (stars["path"], stars["value"]["value"]) == ("/guide", 4)


def test_the_app_shows_an_inline_survey_when_its_router_reaches_the_page_the_trigger_names(
    app: tuple[StaticSite, Tenant], live_server: LiveServer, page: Page
) -> None:
    site, tenant = app
    created = local_http.post(
        f"{live_server.base_url}/api/v1/projects/{tenant.project_id}/surveys",
        json={
            "name": "Guide survey",
            "status": "active",
            "display": "inline",
            "trigger": {"pages": ["/guide"]},
            "questions": [{"id": "nps", "type": "nps", "required": True, "text": {"en": "Recommend us?"}}],
        },
        headers=tenant.headers,
        timeout=10,
    )
    assert created.status_code == 201, created.text
    page.goto(site.origin + "/")
    expect(page.get_by_role("heading", name="Home")).to_be_visible()
    page.wait_for_timeout(800)  # the widget looks at its triggers four times a second
    expect(page.locator("hearken-survey")).to_have_count(0)

    page.get_by_role("link", name="Guide").click()  # the app's router: no page load
    survey = page.locator("#surveys hearken-survey")  # inline: in the component's place
    survey.get_by_role("radio", name="9", exact=True).check()
    survey.get_by_role("button", name="Send").click()
    expect(survey.get_by_role("status")).to_have_text(THANKS)
    [stored] = live_server.read(tenant, f"surveys/{created.json()['id']}/responses")["responses"]
    assert (stored["path"], stored["answers"], stored["completed"]) == (
        "/guide",
        [{"question_id": "nps", "value": 9}],
        True,
    )
