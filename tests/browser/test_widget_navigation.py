"""Single-page sites: the helpful, star and NPS widgets ask again when a page changes its path without a
page load (history.pushState, replaceState, back and forward, navigation.navigate), never on a new query
or hash of the same path, and each answer carries the path of the moment it was sent.

The first tests drive the shared path watcher (static/widgets/src/shared/nav.js) alone, one way of
changing the path each; the rest drive the served widgets, also in a browser without the Navigation API."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import screenshot
from tests.browser.harness import REPO_ROOT, HostPages, LiveServer
from tests.browser.widget_pages import Site

NAV_SOURCE = REPO_ROOT / "static" / "widgets" / "src" / "shared" / "nav.js"
THANKS = "Thank you for your feedback!"

# The watcher, imported as the module it is; every path it reports is kept in `changes`.
WATCHER = """<!doctype html><title>watcher</title><script type="module">
import { followPath } from '/nav.js';
window.changes = [];
window.stop = new AbortController();
followPath(() => changes.push(location.pathname), stop.signal);
// A router built on the Navigation API intercepts its navigations: they stay in the page.
navigation.addEventListener('navigate', (event) => event.canIntercept && event.intercept());
window.ready = true;
</script>"""


@pytest.fixture
def watcher(live_server: LiveServer, host_pages: HostPages, page: Page) -> Page:
    # live_server first: its database is made with asyncio.run, which cannot run beside Playwright's loop.
    host_pages.add("/nav.js", NAV_SOURCE.read_text(), content_type="text/javascript")
    page.goto(host_pages.add("/app/start", WATCHER))
    page.wait_for_function("window.ready === true")
    return page


LOOKS = 600
"""Milliseconds in which the watcher has looked at the path twice at least (it looks every 250)."""


def changes(page: Page, count: int | None = None) -> list[str]:
    """The paths reported once there are `count` of them; with None, after the watcher had time to look."""
    if count is None:
        page.wait_for_timeout(LOOKS)
    else:
        page.wait_for_function(f"changes.length >= {count}")
    return page.evaluate("changes")  # type: ignore[no-any-return]


def test_push_state_to_a_new_path_is_a_new_page(watcher: Page) -> None:
    watcher.evaluate("history.pushState({}, '', '/app/second')")
    assert changes(watcher, 1) == ["/app/second"]
    assert changes(watcher) == ["/app/second"]  # once


def test_replace_state_to_a_new_path_is_a_new_page(watcher: Page) -> None:
    watcher.evaluate("history.replaceState({}, '', '/app/replaced')")
    assert changes(watcher, 1) == ["/app/replaced"]


def test_back_and_forward_are_new_pages(watcher: Page) -> None:
    watcher.evaluate("history.pushState({}, '', '/app/second')")
    changes(watcher, 1)
    watcher.go_back()
    changes(watcher, 2)
    watcher.go_forward()
    assert changes(watcher, 3) == ["/app/second", "/app/start", "/app/second"]


def test_navigation_api_navigate_is_a_new_page(watcher: Page) -> None:
    watcher.evaluate("navigation.navigate('/app/by-navigation').finished")
    assert changes(watcher, 1) == ["/app/by-navigation"]


def test_query_and_hash_of_the_same_path_are_the_same_page(watcher: Page) -> None:
    watcher.evaluate("history.pushState({}, '', '/app/start?tab=2')")
    watcher.evaluate("location.hash = '#section'")
    watcher.evaluate("history.replaceState({}, '', '/app/start?tab=3#other')")
    watcher.go_back()
    assert watcher.evaluate("location.pathname") == "/app/start"
    assert changes(watcher) == []


def test_nothing_is_reported_once_stopped(watcher: Page) -> None:
    watcher.evaluate("stop.abort(); history.pushState({}, '', '/app/after-stop')")
    assert changes(watcher) == []


# The served widgets on a page whose own script changes its path the way a single-page site does.
ROUTER = """document.addEventListener('click', (event) => {
  const link = event.target.closest('a[data-to]');
  if (link) { event.preventDefault(); history.pushState({}, '', link.dataset.to); }
});"""
LINKS = (
    '<nav><a href="#" data-to="/spa/second">Second page</a> <a href="#" data-to="/spa/second?tab=2#x">'
    "Same page, other tab</a></nav>"
)


def rate_helpful(widget: Locator) -> None:
    widget.get_by_role("button", name="Yes").click()


def rate_star(widget: Locator) -> None:
    widget.get_by_role("radio", name="4 stars").check()
    widget.get_by_role("button", name="Send").click()


def rate_nps(widget: Locator) -> None:
    widget.get_by_role("radio", name="8", exact=True).check()
    widget.get_by_role("button", name="Send").click()


WIDGETS: dict[str, tuple[str, Callable[[Locator], None]]] = {
    "helpful": ("ratings/typed?type=helpful", rate_helpful),
    "star": ("ratings/typed?type=star", rate_star),
    "nps": ("ratings/typed?type=nps", rate_nps),
}


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_a_new_path_asks_again_and_each_rating_keeps_its_path(page: Page, site: Site, name: str) -> None:
    read, rate = WIDGETS[name]
    url = site.page(LINKS + site.tag(name), script=ROUTER)
    first_path = urlsplit(url).path
    page.clock.install()
    page.goto(url)
    widget = page.locator(f"hearken-{name}")
    rate(widget)
    expect(widget.get_by_role("status")).to_have_text(THANKS)

    page.get_by_role("link", name="Second page").click()
    assert page.evaluate("location.pathname") == "/spa/second"
    expect(widget.get_by_role("status")).to_be_hidden()  # the thanks is gone: a new question
    page.clock.fast_forward(11_000)  # past the widget's ten-second pause between submissions
    screenshot(page, f"{name}-after-navigation")
    rate(widget)
    expect(widget.get_by_role("status")).to_have_text(THANKS)

    page.get_by_role("link", name="Same page, other tab").click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)  # the same page: still answered

    ratings = site.server.read(site.tenant, read)["ratings"]
    assert sorted(rating["path"] for rating in ratings) == sorted([first_path, "/spa/second"])


def test_the_cooldown_still_holds_across_pages(page: Page, site: Site) -> None:
    page.clock.install()
    page.goto(site.page(LINKS + site.tag("helpful"), script=ROUTER))
    widget = page.locator("hearken-helpful")
    rate_helpful(widget)
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    page.get_by_role("link", name="Second page").click()
    page.clock.fast_forward(3000)
    rate_helpful(widget)
    # 7 s to wait, or 6 once a second of real time has passed on a slow machine (the clock still runs)
    expect(widget.get_by_role("status")).to_have_text(re.compile(r"^Please try again in [67] seconds\.$"))
    assert len(site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]) == 1


def test_an_answer_sent_after_navigating_carries_the_new_path(page: Page, site: Site) -> None:
    # NPS: a score on one page, the comment box still open when the visitor moves on; the next page asks
    # afresh, and what is sent there carries that page's path.
    page.goto(site.page(LINKS + site.tag("nps"), script=ROUTER))
    widget = page.locator("hearken-nps")
    widget.get_by_role("radio", name="3", exact=True).check()
    expect(widget.get_by_label("Why this score? (optional)")).to_be_visible()
    page.get_by_role("link", name="Second page").click()
    expect(widget.get_by_label("Why this score? (optional)")).to_be_hidden()
    expect(widget.get_by_role("radio", name="3", exact=True)).not_to_be_checked()
    rate_nps(widget)
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    [rating] = site.server.read(site.tenant, "ratings/typed?type=nps")["ratings"]
    assert (rating["path"], rating["value"]["value"]) == ("/spa/second", 8)


def test_without_the_navigation_api_a_new_path_still_asks_again(page: Page, site: Site) -> None:
    # Safari before 26.2 and Firefox before 147 have no Navigation API: the widget must not need it.
    page.add_init_script("delete window.navigation")
    url = site.page(LINKS + site.tag("helpful"), script=ROUTER)
    page.clock.install()
    page.goto(url)
    assert page.evaluate("'navigation' in window") is False
    widget = page.locator("hearken-helpful")
    status = widget.get_by_role("status")
    rate_helpful(widget)
    expect(status).to_have_text(THANKS)

    page.get_by_role("link", name="Second page").click()  # history.pushState to a new path
    expect(status).to_be_hidden()
    page.clock.fast_forward(11_000)
    rate_helpful(widget)
    expect(status).to_have_text(THANKS)

    page.get_by_role("link", name="Same page, other tab").click()  # a query and a hash: the same page
    page.wait_for_timeout(LOOKS)
    expect(status).to_have_text(THANKS)
    page.go_back()  # back to the same path without the query: still the same page
    page.wait_for_timeout(LOOKS)
    expect(status).to_have_text(THANKS)

    page.go_back()  # popstate to the first page: a new page again
    assert page.evaluate("location.pathname") == urlsplit(url).path
    expect(status).to_be_hidden()
    ratings = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert sorted(rating["path"] for rating in ratings) == sorted([urlsplit(url).path, "/spa/second"])
