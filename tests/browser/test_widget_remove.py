"""Every widget's remove() takes it out of the page and leaves nothing behind: no element, no global, no
listener on the page's window or document, no open dialog over the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.widget_pages import Site, strict_csp

WIDGETS = {
    "helpful": "HearkenHelpful",
    "star": "HearkenStar",
    "nps": "HearkenNps",
    "contact": "HearkenContact",
    "feedback": "HearkenFeedback",
}

# Everything a widget could leave on the page, as the page's own script sees it.
LEFTOVERS = """() => ({
  elements: [...document.querySelectorAll('*')].filter((el) => el.localName.startsWith('hearken-')).length,
  globals: Object.keys(window).filter((name) => name.startsWith('Hearken')),
  bodyChildren: document.body.querySelectorAll(':scope > :not(script)').length,  // the tag is the site's
  openDialogs: document.querySelectorAll('dialog[open]').length,
  sheets: document.adoptedStyleSheets.length,
})"""


def listeners(page: Page) -> list[tuple[str, str]]:
    """The event listeners on window and document, as the browser's own debugger lists them."""
    cdp = page.context.new_cdp_session(page)
    found = []
    for target in ("window", "document"):
        handle = cdp.send("Runtime.evaluate", {"expression": target})["result"]["objectId"]
        entries = cdp.send("DOMDebugger.getEventListeners", {"objectId": handle})["listeners"]
        found += [(target, entry["type"]) for entry in entries]
    cdp.detach()
    return sorted(found)


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_remove_leaves_nothing_behind(page: Page, site: Site, name: str) -> None:
    page.goto(site.page('<button id="own">The page\'s own button</button>'))
    before = page.evaluate(LEFTOVERS)
    before_listeners = listeners(page)

    page.goto(site.page('<button id="own">The page\'s own button</button>' + site.tag(name)))
    expect(page.locator(f"hearken-{name}")).to_be_attached()
    if name in ("contact", "feedback"):
        page.evaluate(f"{WIDGETS[name]}.open()")
        expect(page.get_by_role("dialog")).to_be_visible()
    page.evaluate(f"{WIDGETS[name]}.remove()")

    assert page.evaluate(LEFTOVERS) == before
    assert listeners(page) == before_listeners
    page.locator("#own").click(timeout=2000)  # nothing covers the page any more


def test_removed_before_the_page_has_loaded_it_never_appears(page: Page, site: Site) -> None:
    # In <head>, aimed at a container further down: the widget waits for the document, unless removed.
    page.goto(site.page('<div id="slot"></div>'))
    baseline = listeners(page)
    head = site.tag("helpful", container="#slot") + site.tag("star", container="#slot")
    site.host.add("/remove-helpful.js", "HearkenHelpful.remove();", content_type="text/javascript")
    url = site.host.add(
        "/docs/removed-early",
        f'<!doctype html><html><head>{head}<script src="/remove-helpful.js"></script></head>'
        '<body><div id="slot"></div></body></html>',
        Content_Security_Policy=strict_csp(site.server.base_url),
    )
    page.goto(url)
    expect(page.locator("#slot hearken-star")).to_be_attached()  # the other widget is placed as usual
    expect(page.locator("hearken-helpful")).to_have_count(0)
    assert page.evaluate("typeof HearkenHelpful") == "undefined"
    page.evaluate("HearkenStar.remove()")
    assert listeners(page) == baseline
