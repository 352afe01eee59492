"""The survey widget on a customer's page (strict CSP): each trigger (page globs, an event from
Hearken.track, time on page, scroll depth) and single-page navigation, the loader fetching nothing more
until a survey is due, every question type answered by keyboard alone with skip logic, answers stored as
the visitor goes, the cooldown and "never again" across reloads, a forced show, the visitor's language,
a refused origin, and a failed submission that shows an error, never thanks."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Request, expect

from tests.browser.accessibility import axe_violations
from tests.browser.conftest import screenshot
from tests.browser.harness import REPO_ROOT, LiveServer
from tests.browser.widget_pages import Site
from tests.local_http import local_http

THANKS = "Thank you for your feedback!"
FAILED = "Sorry, sending failed. Please try again later."
SETTLE_MS = 800
"""Long enough for the loader to look at its triggers three times (it looks four times a second)."""
NPS = {
    "id": "nps",
    "type": "nps",
    "required": True,
    "text": {
        "en": "How likely are you to recommend us?",
        "de": "Wie wahrscheinlich empfehlen Sie uns weiter?",
        "sv": "Hur troligt är det att du rekommenderar oss?",
    },
}
WATCH = """
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""
"""The site's own script: records every Content-Security-Policy violation on the page."""


def texts(en: str) -> dict[str, str]:
    return {"en": en, "de": f"{en} (de)", "sv": f"{en} (sv)"}


def add_survey(site: Site, **fields: Any) -> str:
    """An active survey of the site's project, in en, de and sv; returns its id."""
    body = {
        "name": "Browser survey",
        "status": "active",
        "languages": ["en", "de", "sv"],
        "questions": [NPS],
        "display": "modal",
        "trigger": {},
        "cooldown_days": 30,
        **fields,
    }
    response = local_http.post(
        f"{site.server.base_url}/api/v1/projects/{site.tenant.project_id}/surveys",
        json=body,
        headers=site.tenant.headers,
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]  # type: ignore[no-any-return]


def responses(site: Site, survey_id: str) -> list[dict[str, Any]]:
    return site.server.read(site.tenant, f"surveys/{survey_id}/responses")["responses"]  # type: ignore[no-any-return]


class Requests:
    """The widget's requests to the Hearken server, in order."""

    def __init__(self, page: Page, server: LiveServer) -> None:
        self.urls: list[str] = []
        page.on("request", lambda request: self._add(request, server.base_url))

    def _add(self, request: Request, base: str) -> None:
        if request.url.startswith(base):
            self.urls.append(request.url.removeprefix(base))

    def renderer_or_definition(self) -> list[str]:
        return [url for url in self.urls if "survey-renderer" in url or "/definition" in url]


def open_page(
    page: Page, site: Site, body: str = "", *, folder: str = "/docs", css: str = "", **data: str
) -> str:
    """A strict-CSP page of the site with the survey tag; waits for the loader's list of surveys."""
    url = site.page(site.tag("survey", **data) + body, script=WATCH, css=css, folder=folder)
    with page.expect_response(re.compile(r"/api/v1/surveys/active\?")):
        page.goto(url)
    return url


def survey(page: Page) -> Locator:
    return page.locator("hearken-survey")


def shows_nothing(page: Page) -> None:
    page.wait_for_timeout(SETTLE_MS)
    expect(survey(page)).to_have_count(0)


@pytest.fixture
def network(page: Page, live_server: LiveServer) -> Requests:
    return Requests(page, live_server)


def test_page_globs_and_push_state_with_nothing_fetched_before_the_trigger_matches(
    page: Page, site: Site, network: Requests
) -> None:
    add_survey(site, trigger={"pages": ["/guide/*"], "exclude_pages": ["/guide/secret"]})
    open_page(page, site)
    shows_nothing(page)
    for path in ("/guide/a/b", "/guide/secret"):  # * stays within one segment; an excluded page
        page.evaluate(f"history.pushState({{}}, '', '{path}')")
        shows_nothing(page)
    assert network.renderer_or_definition() == []
    assert [url for url in network.urls if "/surveys/active" in url] != []

    page.evaluate("history.pushState({}, '', '/guide/setup')")
    dialog = survey(page).get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("radiogroup", name="How likely are you to recommend us?")).to_be_visible()
    assert len(network.renderer_or_definition()) == 2
    assert len([url for url in network.urls if "/surveys/active" in url]) == 1  # once per page load
    assert page.evaluate("violations") == []


def test_double_star_crosses_segments_and_replace_state_counts(page: Page, site: Site) -> None:
    add_survey(site, trigger={"pages": ["/guide/**"]})
    open_page(page, site)
    shows_nothing(page)
    page.evaluate("history.replaceState({}, '', '/guide/api/keys')")
    expect(survey(page).get_by_role("dialog")).to_be_visible()


def test_an_event_from_hearken_track(page: Page, site: Site, network: Requests) -> None:
    add_survey(site, trigger={"event": "checkout_done"})
    open_page(page, site)
    page.evaluate("Hearken.track('something_else')")
    shows_nothing(page)
    assert network.renderer_or_definition() == []
    page.evaluate("Hearken.track('checkout_done')")
    expect(survey(page).get_by_role("dialog")).to_be_visible()


def test_seconds_on_page_count_again_after_a_client_side_navigation(page: Page, site: Site) -> None:
    add_survey(site, trigger={"seconds_on_page": 30})
    page.clock.install()
    open_page(page, site)
    page.clock.run_for(20_000)
    page.evaluate("history.pushState({}, '', '/docs/next')")  # a new page: the time starts again
    page.clock.run_for(20_000)
    shows_nothing(page)
    page.clock.run_for(11_000)
    expect(survey(page).get_by_role("dialog")).to_be_visible()


def test_scroll_percent(page: Page, site: Site) -> None:
    add_survey(site, trigger={"scroll_percent": 90}, display="banner")
    open_page(page, site, '<div class="tall">A long page</div>', css=".tall { height: 4000px; }")
    page.mouse.wheel(0, 1500)
    shows_nothing(page)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(survey(page).get_by_role("region")).to_be_visible()


def test_a_trigger_of_only_a_lifecycle_event_never_shows(page: Page, site: Site, network: Requests) -> None:
    add_survey(site, trigger={"lifecycle_event": "trial_expired"})
    open_page(page, site)
    page.evaluate("Hearken.track('trial_expired')")
    shows_nothing(page)
    assert network.renderer_or_definition() == []


def every_type(site: Site) -> str:
    choices = [{"id": c, "text": texts(c.capitalize())} for c in ("learn", "fix", "other")]
    parts = [{"id": c, "text": texts(c.upper())} for c in ("api", "guides", "faq")]
    return add_survey(
        site,
        questions=[
            NPS,
            {"id": "rate", "type": "rating", "scale": 5, "text": texts("Rate the docs")},
            {
                "id": "why",
                "type": "single_choice",
                "required": True,
                "choices": choices,
                "text": texts("What did you come for?"),
                "next": [{"if": "learn", "goto": "parts"}],
            },
            {"id": "skipped", "type": "open_text", "text": texts("Skipped by the skip logic")},
            {"id": "parts", "type": "multiple_choice", "choices": parts, "text": texts("Which parts?")},
            {"id": "found", "type": "boolean", "required": True, "text": texts("Did you find it?")},
            {"id": "more", "type": "open_text", "text": texts("Anything else?")},
        ],
    )


def test_every_question_type_by_keyboard_alone_stored_as_the_visitor_goes(page: Page, site: Site) -> None:
    survey_id = every_type(site)
    open_page(page, site)
    dialog = survey(page).get_by_role("dialog")
    expect(dialog).to_be_visible()
    keys = page.keyboard

    nps = dialog.get_by_role("radiogroup", name="How likely are you to recommend us?")
    expect(nps.get_by_role("radio", name="0", exact=True)).to_be_focused()
    # every step is built at once; no style attribute anywhere, which a strict style-src would refuse
    # (checked before any screenshot or axe run, which set some of their own)
    styled = page.evaluate(
        "[...document.querySelector('hearken-survey').shadowRoot.querySelectorAll('[style]')]"
    )
    assert styled == []
    keys.press("Enter")  # nothing chosen: a required question says so and keeps the visitor
    expect(dialog.get_by_text("Please answer this question.")).to_be_visible()
    for _ in range(9):
        keys.press("ArrowRight")
    expect(nps.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(dialog.get_by_text("Please answer this question.")).to_have_count(0)  # answered now
    screenshot(page, "survey-modal")
    assert axe_violations(page) == []  # WCAG 2.1 A and AA, inside the shadow root too
    keys.press("Enter")

    rate = dialog.get_by_role("radiogroup", name="Rate the docs")
    expect(rate.get_by_role("radio", name="1", exact=True)).to_be_focused()
    keys.press("ArrowRight")
    keys.press("ArrowRight")
    keys.press("ArrowRight")  # 4
    keys.press("Enter")

    why = dialog.get_by_role("radiogroup", name="What did you come for?")
    expect(why.get_by_role("radio", name="Learn")).to_be_focused()
    keys.press("Space")  # learn: skips to "parts"
    keys.press("Tab")  # Back, then Next
    keys.press("Tab")
    expect(dialog.get_by_role("button", name="Next")).to_be_focused()
    keys.press("Enter")

    parts = dialog.get_by_role("group", name="Which parts?")
    expect(parts.get_by_role("checkbox", name="API")).to_be_focused()
    keys.press("Space")
    keys.press("Tab")
    keys.press("Tab")
    keys.press("Space")  # API and FAQ
    expect(parts.get_by_role("checkbox", name="FAQ")).to_be_checked()
    screenshot(page, "survey-modal-choices")
    assert axe_violations(page) == []
    keys.press("Enter")

    found = dialog.get_by_role("radiogroup", name="Did you find it?")
    expect(found.get_by_role("radio", name="Yes")).to_be_focused()
    keys.press("ArrowRight")  # No
    keys.press("Enter")

    more = dialog.get_by_role("textbox", name="Anything else?")
    expect(more).to_be_focused()
    expect(dialog.get_by_role("button", name="Send")).to_be_visible()
    keys.type("Clear & <b>short</b>")
    keys.press("Tab")
    keys.press("Tab")
    expect(dialog.get_by_role("button", name="Send")).to_be_focused()
    keys.press("Enter")
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    expect(dialog.get_by_role("status")).to_be_focused()
    screenshot(page, "survey-modal-thanks")

    [stored] = responses(site, survey_id)
    assert stored["completed"] is True
    assert {a["question_id"]: a["value"] for a in stored["answers"]} == {
        "nps": 9,
        "rate": 4,
        "why": "learn",
        "parts": ["api", "faq"],
        "found": False,
        "more": "Clear & <b>short</b>",
    }
    assert stored["language"] == "en"
    assert stored["path"].startswith("/docs/page-")
    assert page.evaluate("violations") == []


def test_back_keeps_the_answers_and_partial_answers_are_one_response(page: Page, site: Site) -> None:
    survey_id = every_type(site)
    open_page(page, site)
    dialog = survey(page).get_by_role("dialog")
    nps = dialog.get_by_role("radiogroup", name="How likely are you to recommend us?")
    rate = dialog.get_by_role("radiogroup", name="Rate the docs")
    nps.get_by_role("radio", name="7", exact=True).check()
    dialog.get_by_role("button", name="Next").click()
    rate.get_by_role("radio", name="2", exact=True).check()
    dialog.get_by_role("button", name="Next").click()
    expect(dialog.get_by_role("radiogroup", name="What did you come for?")).to_be_visible()
    dialog.get_by_role("button", name="Back").click()
    expect(rate.get_by_role("radio", name="2", exact=True)).to_be_checked()
    dialog.get_by_role("button", name="Back").click()
    expect(nps.get_by_role("radio", name="7", exact=True)).to_be_checked()
    expect(dialog.get_by_role("button", name="Back")).to_be_hidden()
    dialog.get_by_role("button", name="Close").click()
    expect(survey(page)).to_have_count(0)

    [stored] = responses(site, survey_id)  # not completed, one response for both answers
    assert stored["completed"] is False
    assert {a["question_id"]: a["value"] for a in stored["answers"]} == {"nps": 7, "rate": 2}


def test_cooldown_and_never_again_across_reloads_and_force_show(page: Page, site: Site) -> None:
    first = add_survey(site, cooldown_days=2)
    add_survey(site, trigger={"event": "later"})
    open_page(page, site)
    expect(survey(page).get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")  # closed: a cooldown of 2 days, and this survey never again
    expect(survey(page)).to_have_count(0)

    page.reload()
    page.evaluate("Hearken.track('later')")
    shows_nothing(page)  # neither: the cooldown holds for every survey of the project

    page.evaluate(f"Hearken.survey.show('{first}')")
    shows_nothing(page)  # show() without force keeps the cooldown
    page.evaluate(f"Hearken.survey.show('{first}', {{force: true}})")
    expect(survey(page).get_by_role("dialog")).to_be_visible()
    page.evaluate("Hearken.survey.remove()")
    expect(survey(page)).to_have_count(0)

    page.clock.install(time=datetime.now(UTC) + timedelta(days=3))
    page.reload()
    shows_nothing(page)  # past the cooldown, the first survey still never again
    page.evaluate("Hearken.track('later')")
    expect(survey(page).get_by_role("dialog")).to_be_visible()


def test_the_sample_is_drawn_once_per_visitor_and_survey(page: Page, site: Site) -> None:
    survey_id = add_survey(site, audience={"sample_percent": 50})
    open_page(page, site)
    page.wait_for_timeout(SETTLE_MS)
    key = f"hearken-survey-{site.tenant.project_key}"
    drawn = page.evaluate(f"JSON.parse(localStorage['{key}'])['{survey_id}']")
    assert 0 <= drawn < 100
    shown = survey(page).count() == 1
    assert shown == (drawn < 50)
    if shown:
        page.evaluate("Hearken.survey.remove()")  # taken away without closing: nothing recorded
    page.reload()
    page.wait_for_timeout(SETTLE_MS)
    assert page.evaluate(f"JSON.parse(localStorage['{key}'])['{survey_id}']") == drawn
    assert (survey(page).count() == 1) == (drawn < 50)


@pytest.mark.parametrize(
    ("language", "question", "next_label", "low"),
    [
        ("de", "Wie wahrscheinlich empfehlen Sie uns weiter?", "Weiter", "Unwahrscheinlich"),
        ("sv", "Hur troligt är det att du rekommenderar oss?", "Nästa", "Inte troligt"),
    ],
)
def test_german_and_swedish(
    page: Page, site: Site, language: str, question: str, next_label: str, low: str
) -> None:
    survey_id = add_survey(site, questions=[NPS, {"id": "more", "type": "open_text", "text": texts("More")}])
    open_page(page, site, language=language)
    dialog = survey(page).get_by_role("dialog")
    expect(dialog.get_by_role("radiogroup", name=question)).to_be_visible()
    expect(dialog.get_by_text(low)).to_be_visible()
    dialog.get_by_role("radio", name="10", exact=True).check()
    dialog.get_by_role("button", name=next_label).click()
    expect(dialog.get_by_role("textbox", name=f"More ({language})")).to_be_visible()
    [stored] = responses(site, survey_id)
    assert stored["language"] == language


def test_the_audience_languages(page: Page, site: Site) -> None:
    add_survey(site, audience={"languages": ["de"]})
    open_page(page, site, language="sv")
    shows_nothing(page)
    open_page(page, site, language="de")
    expect(survey(page).get_by_role("dialog")).to_be_visible()


def test_a_refused_origin_shows_nothing_and_breaks_nothing(
    page: Page, site: Site, live_server: LiveServer, network: Requests
) -> None:
    add_survey(site)
    elsewhere = live_server.project(site.tenant, origins=("https://elsewhere.example",))
    foreign = Site(site.server, site.host, elsewhere)
    add_survey(foreign)
    url = foreign.page(
        foreign.tag("survey") + '<button id="b">Works</button>',
        script=WATCH + "b.onclick = () => b.textContent = 'Clicked';",
    )
    page.goto(url)
    page.evaluate("Hearken.track('anything')")
    shows_nothing(page)
    page.locator("#b").click()
    expect(page.locator("#b")).to_have_text("Clicked")
    assert network.renderer_or_definition() == []


def test_a_failed_submission_shows_an_error_never_thanks(page: Page, site: Site) -> None:
    survey_id = add_survey(site)
    open_page(page, site)
    dialog = survey(page).get_by_role("dialog")
    dialog.get_by_role("radio", name="8", exact=True).check()
    page.route(re.compile(r"/responses/submit$"), lambda route: route.fulfill(status=500, body="{}"))
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_text(FAILED)).to_be_visible()
    expect(dialog.get_by_text(THANKS)).to_have_count(0)
    expect(dialog.get_by_role("radio", name="8", exact=True)).to_be_checked()  # still there to try again
    assert responses(site, survey_id) == []

    page.unroute(re.compile(r"/responses/submit$"))
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    expect(dialog.get_by_text(FAILED)).to_have_count(0)
    assert [r["completed"] for r in responses(site, survey_id)] == [True]


def test_a_banner_and_an_inline_survey_look_right_on_a_phone(page: Page, site: Site) -> None:
    add_survey(site, display="banner", trigger={"pages": ["/docs/*"]}, cooldown_days=0)
    add_survey(site, display="inline", trigger={"pages": ["/inline/*"]}, cooldown_days=0)
    page.set_viewport_size({"width": 375, "height": 720})
    open_page(page, site, "<p>Some of the page's own text.</p>")
    banner = survey(page).get_by_role("region")
    expect(banner).to_be_visible()
    box = banner.bounding_box()
    assert box and box["width"] == 375 and box["y"] + box["height"] == 720
    page.keyboard.press("Tab")
    screenshot(page, "survey-banner-375")
    assert axe_violations(page) == []
    banner.get_by_role("button", name="Close").click()
    expect(survey(page)).to_have_count(0)

    open_page(page, site, '<div id="here"></div>', folder="/inline", container="#here")
    inline = page.locator("#here hearken-survey").get_by_role("region")
    expect(inline).to_be_visible()
    screenshot(page, "survey-inline-375")


def test_a_modal_on_a_phone(page: Page, site: Site) -> None:
    add_survey(site)
    page.set_viewport_size({"width": 375, "height": 720})
    open_page(page, site)
    dialog = survey(page).get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("ArrowRight")
    box = dialog.bounding_box()
    assert box and box["x"] >= 8 and box["x"] + box["width"] <= 367
    screenshot(page, "survey-modal-375")


@pytest.fixture
def package_module(site: Site) -> Iterator[str]:
    path = "/pkg/survey.js"
    site.host.add(
        path, (REPO_ROOT / "packages/widgets/dist/survey.js").read_text(), content_type="text/javascript"
    )
    yield path


def test_mount_survey_from_the_package(page: Page, site: Site, package_module: str) -> None:
    survey_id = add_survey(site, display="inline", trigger={"event": "opened"})
    start = (
        f"import {{ mountSurvey, trackSurveyEvent }} from '{package_module}';\n"
        f"window.handle = mountSurvey(document.querySelector('#here'), "
        f"{{ projectKey: '{site.tenant.project_key}', apiUrl: '{site.server.base_url}' }});\n"
        "trackSurveyEvent('opened');\n"
    )
    site.host.add("/pkg/start.js", start, content_type="text/javascript")
    page.goto(site.page('<div id="here"></div><script type="module" src="/pkg/start.js"></script>'))
    inline = page.locator("#here hearken-survey")
    inline.get_by_role("radio", name="6", exact=True).check()
    inline.get_by_role("button", name="Send").click()
    expect(inline.get_by_role("status")).to_have_text(THANKS)
    assert page.evaluate("typeof window.Hearken") == "undefined"  # a mounted widget publishes no global
    assert [r["answers"] for r in responses(site, survey_id)] == [[{"question_id": "nps", "value": 6}]]
    page.evaluate("handle.remove()")
    expect(inline).to_have_count(0)


def test_a_survey_for_verified_users_shows_once_the_page_names_a_signed_user(page: Page, site: Site) -> None:
    survey_id = add_survey(site, audience={"verified_only": True})
    created = local_http.post(
        f"{site.server.base_url}/api/v1/projects/{site.tenant.project_id}/identity-secret",
        headers=site.tenant.headers,
        timeout=10,
    )
    signature = hmac.new(created.json()["secret"].encode(), b"user_42", hashlib.sha256).hexdigest()
    open_page(page, site)
    shows_nothing(page)
    assert page.evaluate("Hearken.survey.setUser('not an id!', 'x')") is False
    assert page.evaluate(f"Hearken.survey.setUser('user_42', '{signature}')") is True
    dialog = survey(page).get_by_role("dialog")
    dialog.get_by_role("radio", name="5", exact=True).check()
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    [stored] = responses(site, survey_id)
    assert (stored["submitted_by"], stored["submitted_by_verified"]) == ("user_42", True)


def test_the_list_is_fetched_once_per_page_load_and_revalidated_by_its_etag(page: Page, site: Site) -> None:
    add_survey(site, trigger={"event": "never_sent"})
    lists: list[Request] = []
    page.on("request", lambda request: "/surveys/active" in request.url and lists.append(request))
    url = open_page(page, site)
    page.evaluate("history.pushState({}, '', '/docs/elsewhere')")  # the same page load: not again
    page.wait_for_timeout(SETTLE_MS)
    with page.expect_response(re.compile(r"/api/v1/surveys/active\?")):
        page.goto(url)
    assert len(lists) == 2
    first = lists[0].response()
    assert first and first.status == 200 and first.headers["etag"]
    # the next page load's fetch is revalidated by the browser's cache with the ETag it holds (the page
    # sees the cached 200 either way)
    assert lists[1].all_headers()["if-none-match"] == first.headers["etag"]


def test_skip_logic_that_ends_the_survey_turns_next_into_send(page: Page, site: Site) -> None:
    survey_id = add_survey(
        site,
        questions=[
            {
                "id": "found",
                "type": "boolean",
                "required": True,
                "text": texts("Did you find it?"),
                "next": [{"if": True, "goto": "end"}],
            },
            {"id": "missing", "type": "open_text", "required": True, "text": texts("What was missing?")},
        ],
    )
    open_page(page, site)
    dialog = survey(page).get_by_role("dialog")
    expect(dialog.get_by_role("button", name="Next")).to_be_visible()
    dialog.get_by_role("radio", name="No").check()
    expect(dialog.get_by_role("button", name="Next")).to_be_visible()
    dialog.get_by_role("radio", name="Yes").check()
    dialog.get_by_role("button", name="Send").click()
    expect(dialog.get_by_role("status")).to_have_text(THANKS)
    [stored] = responses(site, survey_id)
    assert (stored["answers"], stored["completed"]) == ([{"question_id": "found", "value": True}], True)
