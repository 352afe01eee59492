"""Failure is visible and honest: a refused, rate-limited or unanswered submission is reported (with
when to retry for 429), never thanked; and the widget's own 10-second cooldown holds."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.browser.widget_pages import Site, strict_csp
from tests.server_processes import free_port

THANKS = "Thank you for your feedback!"
# One message for every failure: a refusal without CORS headers looks to the widget like an unreachable
# server anyway, and either way the visitor can only try again later.
FAILED = "Sorry, sending failed. Please try again later."


def test_cooldown_refuses_a_second_rating_within_ten_seconds(page: Page, site: Site) -> None:
    page.clock.install()
    page.goto(site.page(site.tag("helpful")))
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="Yes").click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    page.evaluate("HearkenHelpful.reset()")
    expect(widget.locator("[role=status]")).to_have_text("")

    page.clock.fast_forward(4000)
    widget.get_by_role("button", name="No").click()
    # The page's clock also runs on by itself: on a busy machine a second or two more has passed.
    expect(widget.get_by_role("status")).to_have_text(re.compile(r"Please try again in [1-6] seconds?\."))
    expect(widget.get_by_role("button", name="No")).to_be_visible()

    page.clock.fast_forward(6100)
    widget.get_by_role("button", name="No").click()
    expect(widget.get_by_role("status")).to_have_text(THANKS)
    ratings = site.server.read(site.tenant, "ratings/typed?type=helpful")["ratings"]
    assert [r["value"]["value"] for r in ratings] == [False, True]


def test_rate_limited_submission_says_when_to_retry(page: Page, site: Site) -> None:
    url = site.page(site.tag("helpful"))
    body = {"project_key": site.tenant.project_key, "value": True, "path": "/elsewhere"}
    origin = {"Origin": site.host.origin}
    with httpx.Client(base_url=site.server.base_url) as client:  # spend this client's budget (30/60 s)
        statuses = [
            client.post("/api/v1/rating/submit", json=body, headers=origin).status_code for _ in range(40)
        ]
    assert statuses[-1] == 429, statuses
    page.goto(url)
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="Yes").click()
    status = widget.get_by_role("status")
    expect(status).to_have_text(re.compile(r"^Please try again in \d+ seconds\.$"))
    seconds = int(re.search(r"\d+", status.inner_text()).group())  # type: ignore[union-attr]
    assert 1 <= seconds <= 60
    expect(widget.get_by_role("button", name="Yes")).to_be_visible()
    paths = [
        r["path"] for r in site.server.read(site.tenant, "ratings/typed?type=helpful&limit=100")["ratings"]
    ]
    assert "/elsewhere" in paths and not any(p.startswith("/docs/") for p in paths)


def test_unreachable_api_is_reported(page: Page, site: Site) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    page.goto(
        site.page(
            site.tag("helpful", api_url=dead) + site.tag("contact", api_url=dead),
            csp=strict_csp(site.server.base_url, dead),
        )
    )
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="Yes").click()
    expect(widget.get_by_role("status")).to_have_text(FAILED)
    page.get_by_role("button", name="Contact Us").click()
    dialog = page.get_by_role("dialog", name="Contact us")
    dialog.get_by_label("Name").fill("Ada")
    dialog.get_by_label("Email").fill("ada@example.org")
    dialog.get_by_label("Message").fill("Anyone there?")
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(FAILED)
    expect(dialog.get_by_label("Message")).to_have_value("Anyone there?")  # nothing the visitor typed is lost


def test_refused_submissions_are_reported_not_thanked(page: Page, site: Site) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    page.goto(site.page(_star_with_key(site, unknown)))
    widget = page.locator("hearken-star")
    widget.get_by_role("radio", name="3 stars").check()
    widget.get_by_role("button", name="Send").click()
    expect(widget.get_by_role("status")).to_have_text(FAILED)


def test_an_origin_the_project_does_not_allow_is_refused_visibly(page: Page, site: Site) -> None:
    other = site.server.project(site.tenant, origins=("https://somewhere-else.example",))
    page.goto(site.page(_helpful_for(site, other.project_key)))
    widget = page.locator("hearken-helpful")
    widget.get_by_role("button", name="No").click()
    # The 403 carries no Access-Control-Allow-Origin for this origin, so the browser hides it from the
    # widget as it would hide a network failure: the widget can only say that sending did not work.
    expect(widget.get_by_role("status")).to_have_text(FAILED)
    assert site.server.read(other, "ratings/typed?type=helpful")["ratings"] == []


def _star_with_key(site: Site, key: str) -> str:
    return site.tag("star").replace(site.tenant.project_key, key)


def _helpful_for(site: Site, key: str) -> str:
    return site.tag("helpful").replace(site.tenant.project_key, key)
