"""A customer page with a strict CSP (no 'unsafe-inline' anywhere) and CSS that attacks everything it can
reach: the widgets still render, work and store, and cause no CSP violation and no error."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from app.ingest import MIN_HUMAN_MS
from tests.browser.conftest import screenshot
from tests.browser.widget_pages import Site

HOSTILE_CSS = """
* { font-size: 3px !important; color: red !important; letter-spacing: 6px !important;
    box-sizing: content-box !important; line-height: 0 !important; }
div, p, form, span, label, section, dialog, fieldset, legend {
    display: none !important; visibility: hidden !important; }
button, input, textarea, select { display: none !important; opacity: 0 !important; }
hearken-helpful, hearken-star, hearken-nps, hearken-contact, hearken-feedback, [class], body > * {
    display: none !important; opacity: 0 !important; position: absolute !important; left: -9999px !important;
    filter: blur(4px) !important; pointer-events: none !important; }
dialog::backdrop { display: none !important; }
"""

# The site's own script records what the browser reports, where the test can read it.
RECORDER = """
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective));
"""


def test_widgets_survive_a_strict_csp_and_hostile_css(page: Page, site: Site) -> None:
    body = "".join(site.tag(name, version="h1") for name in ("helpful", "star", "nps", "contact", "feedback"))
    # the recorder must run before the widgets: put it first
    url = site.page(f'<script src="/recorder.js"></script>{body}', css=HOSTILE_CSS)
    site.host.add("/recorder.js", RECORDER, content_type="text/javascript")
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.goto(url)

    helpful = page.locator("hearken-helpful")
    expect(helpful.get_by_role("button", name="Yes")).to_be_visible()
    font_size = helpful.get_by_role("button", name="Yes").evaluate("el => getComputedStyle(el).fontSize")
    assert font_size == "15px"
    expect(page.locator("hearken-star").get_by_role("button", name="Send")).to_be_visible()
    nps = page.locator("hearken-nps")
    expect(nps.get_by_role("radio", name="10", exact=True)).to_be_attached()
    expect(nps.get_by_text("Very likely")).to_be_visible()
    assert nps.get_by_text("Very likely").evaluate("el => getComputedStyle(el).color") != "rgb(255, 0, 0)"
    expect(page.get_by_role("button", name="Contact Us")).to_be_visible()
    expect(page.get_by_role("button", name="Feedback")).to_be_visible()
    screenshot(page, "hostile-page")

    helpful.get_by_role("button", name="Yes").click()
    expect(helpful.get_by_role("status")).to_have_text("Thank you for your feedback!")
    nps.get_by_role("radio", name="10", exact=True).check()
    nps.get_by_role("button", name="Send").click()
    expect(nps.get_by_role("status")).to_have_text("Thank you for your feedback!")
    page.get_by_role("button", name="Contact Us").click()
    dialog = page.get_by_role("dialog", name="Contact us")
    expect(dialog.get_by_label("Name")).to_be_visible()
    dialog.get_by_label("Name").fill("Eve")
    dialog.get_by_label("Email").fill("eve@example.org")
    dialog.get_by_label("Message").fill("Still readable.")
    screenshot(page, "hostile-page-contact")
    page.wait_for_timeout(MIN_HUMAN_MS)  # a person's pause: sooner is judged spam
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_contain_text("respond soon")

    assert page.evaluate("window.cspViolations") == []
    assert not [line for line in console if line.startswith("error")], console
    assert site.server.read(site.tenant, "ratings/typed?type=helpful")["pagination"]["total"] == 1
    assert site.server.read(site.tenant, "ratings/typed?type=nps")["pagination"]["total"] == 1
    assert site.server.read(site.tenant, "contact-messages")["pagination"]["total"] == 1


def test_no_inline_style_attribute_is_set_anywhere(page: Page, site: Site) -> None:
    body = "".join(site.tag(name) for name in ("helpful", "star", "nps", "contact", "feedback"))
    page.goto(site.page(body))
    page.get_by_role("button", name="Contact Us").click()
    styled = page.evaluate(
        """() => {
          const found = [];
          const walk = (root) => root.querySelectorAll('*').forEach((el) => {
            if (el.hasAttribute('style')) found.push(el.tagName);
            if (el.shadowRoot) walk(el.shadowRoot);
          });
          walk(document);
          return found;
        }"""
    )
    assert styled == []
