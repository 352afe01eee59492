"""axe-core (from package.json, installed by `make setup`) run on a console page in Chromium: the
WCAG 2.x A and AA rules, as a screen-reader or keyboard user would meet the page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.browser.harness import REPO_ROOT

AXE = REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Each rule the page breaks, with the elements that break it (an empty list: axe-clean)."""
    if not AXE.is_file():
        raise RuntimeError("axe-core is not installed: run make setup")
    # The console's CSP allows no inline or foreign script, so the engine is evaluated by the
    # DevTools protocol (Playwright's evaluate), not added as a <script> tag.
    page.evaluate(AXE.read_text())
    result = page.evaluate(
        "rules => axe.run(document, {runOnly: {type: 'tag', values: rules}})"
        ".then(r => r.violations.map(v => ({id: v.id, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' '))})))",
        RULES,
    )
    return list(result)
