"""The Surveys tab in Chromium, found by the names a person reads: a survey from a template, a question
added with its texts side by side in each language while the live preview follows the typing and the
chosen preview language, "Activate" refused until every text is there, then "Activate" and "Pause"; the
results with their charts, the responses and a download, as a member who only reads; and the builder
with JavaScript turned off. On a desktop and at a phone's width (screenshots under
test-artifacts/console/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.console_harness import console_server, page, screenshot
from tests.browser.harness import LiveServer
from tests.browser.test_console_browser import sign_up
from tests.console_helpers import PASSWORD, add_user
from tests.integration.surveys.conftest import ALLOWED, every_type
from tests.local_http import local_http

__all__ = ["console_server", "page"]

pytestmark = pytest.mark.browser


def shoot(page: Page, name: str, *, width: int | None = None) -> None:
    """From the top of the page, so the sticky toolbar and preview stand where they start."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name, width=width)


def test_build_a_survey_with_the_live_preview(page: Page, console_server: str) -> None:
    sign_up(page, console_server, org="Survey Docs")
    page.get_by_role("link", name="New project").first.click()
    page.get_by_label("Name").fill("Help center")
    page.get_by_role("button", name="Create project").click()
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Surveys").click()
    expect(page.get_by_role("heading", name="Surveys", level=1)).to_be_visible()
    page.get_by_label("Start from").select_option(label="Template: Customer satisfaction")
    page.get_by_role("button", name="New survey").click()
    expect(page.get_by_role("status")).to_contain_text("Created as a draft")

    preview = page.locator("#survey-preview")
    page.get_by_role("button", name="Add question").click()
    last = page.locator("fieldset.question").last
    expect(last.get_by_label("Id", exact=True)).to_be_focused()
    question = last.get_by_label("Id", exact=True).input_value()
    last.get_by_label("Type").select_option(label="Single choice")
    # the type re-renders the question with two choices to fill in, one input per language
    expect(last.get_by_role("textbox", name="choice 2 in sv")).to_be_visible()
    last.get_by_role("textbox", name="in en").first.fill("Which plan are you on?")
    expect(preview).to_contain_text("Which plan are you on?")
    last.get_by_role("textbox", name="choice 1 in en").fill("Free")
    last.get_by_role("textbox", name="choice 2 in en").fill("Team")
    expect(preview.locator(".mock-choices").last).to_contain_text("Team")

    page.get_by_label("Preview language").select_option("de")
    expect(preview.locator(".mock-page")).to_have_attribute("lang", "de")
    expect(preview).to_contain_text("Senden")
    expect(preview.locator(".mock-text.missing")).to_contain_text("Which plan are you on?")
    expect(preview).to_contain_text("3 texts not yet written in de")
    page.get_by_label("Banner").check()
    expect(preview.locator(".mock-page")).to_have_class("mock-page display-banner")
    page.get_by_label("Pages", exact=True).fill("/docs/**")
    shoot(page, "surveys-builder")
    shoot(page, "surveys-builder-phone", width=375)

    page.get_by_role("button", name="Activate").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The survey was not activated.")
    expect(alert).to_contain_text("Question 3 in de: Missing")
    invalid = last.get_by_role("textbox", name="in de").first
    expect(invalid).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".mock-page")).to_have_attribute("lang", "de")  # still the chosen preview language
    shoot(page, "surveys-builder-refused")

    last = page.locator("fieldset.question").last
    for language, text, free, team in (
        ("de", "Welchen Tarif nutzen Sie?", "Kostenlos", "Team"),
        ("sv", "Vilken plan använder du?", "Gratis", "Team"),
    ):
        last.get_by_role("textbox", name=f"in {language}").first.fill(text)
        last.get_by_role("textbox", name=f"choice 1 in {language}").fill(free)
        last.get_by_role("textbox", name=f"choice 2 in {language}").fill(team)
    expect(page.locator("#survey-preview")).to_contain_text("Welchen Tarif nutzen Sie?")
    shoot(page, "surveys-preview")
    page.get_by_role("button", name="Activate").click()
    expect(page.get_by_role("status")).to_contain_text("Saved and activated")
    expect(page.locator("#survey-status")).to_have_text("active")
    assert page.locator("fieldset.question").last.get_by_label("Id", exact=True).input_value() == question
    page.get_by_role("button", name="Pause").click()
    expect(page.locator("#survey-status")).to_have_text("paused")
    expect(page.get_by_role("button", name="Activate")).to_be_visible()

    page.get_by_role("link", name="Surveys", exact=True).last.click()
    expect(page.get_by_role("cell", name="paused")).to_be_visible()
    shoot(page, "surveys-list")


def test_results_responses_and_downloads(page: Page, live_server: LiveServer) -> None:
    tenant = live_server.tenant(origins=(ALLOWED,))
    live_server._arrange(lambda maker: add_user(maker, tenant.org_id, "ana@surveys.example", "member"))
    base = live_server.base_url
    api = f"{base}/api/v1/projects/{tenant.project_id}/surveys"
    survey = local_http.post(api, json=every_type(name="Onboarding pulse"), headers=tenant.headers).json()
    plans = ["pro", "free", "pro", "pro", "free", "pro", "free"]
    for n, plan in enumerate(plans):
        answers = {
            "score": [10, 9, 7, 3, 10, 8, 0][n],
            "stars": [5, 4, 4, 2, 5, 3, 1][n],
            "plan": plan,
            "uses": [["docs"], ["docs", "api"], ["ui"], ["api"], ["docs", "ui"], ["docs"], ["api"]][n],
            "again": n % 3 != 0,
            "why": [
                "Quick to set up",
                "<b>not bold</b>",
                "Docs are great",
                "",
                "Love the API",
                "",
                "Too pricey",
            ][n],
        }
        sent = local_http.post(
            f"{base}/api/v1/surveys/{survey['id']}/responses/submit",
            json={
                "project_key": tenant.project_key,
                "answers": [{"question_id": k, "value": v} for k, v in answers.items() if v != ""],
                "language": "de" if n % 2 else "en",
                "completed": n != 6,
                "path": "/docs/start",
            },
            headers={"Origin": ALLOWED},
        )
        assert sent.status_code == 200, sent.text

    page.goto(base + "/login")
    page.get_by_label("Email").fill("ana@surveys.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/projects/{tenant.project_id}/surveys")
    page.get_by_role("link", name="Onboarding pulse").click()
    expect(page.get_by_role("button", name="Activate")).to_have_count(0)  # a member reads only
    page.get_by_role("navigation", name="Survey").get_by_role("link", name="Results").click()
    expect(page.locator("#result-responses")).to_have_text("7")
    expect(page.locator("#nps-score")).to_have_text("14")
    expect(page.get_by_role("img", name="Answers to score")).to_be_visible()
    expect(page.get_by_role("figure", name="Answers to plan")).to_contain_text("Pro 4 · 57 %")
    expect(page.get_by_text("<b>not bold</b>")).to_be_visible()
    shoot(page, "surveys-results")
    shoot(page, "surveys-results-phone", width=375)
    page.get_by_label("Language").select_option("de")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#result-responses")).to_have_text("3")

    page.get_by_role("navigation", name="Survey").get_by_role("link", name="Responses").click()
    page.get_by_label("Completed").select_option(label="Completed")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("td.answers")).to_have_count(6)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    rows = Path(download.value.path()).read_text(encoding="utf-8-sig").strip().splitlines()
    assert len(rows) == 7 and rows[0].startswith("id,")
    shoot(page, "surveys-responses")


def test_the_builder_works_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    tenant = live_server.tenant(origins=(ALLOWED,))
    live_server._arrange(lambda maker: add_user(maker, tenant.org_id, "noscript@surveys.example", "owner"))
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 860})
    page = context.new_page()
    base = live_server.base_url
    page.goto(base + "/login")
    page.get_by_label("Email").fill("noscript@surveys.example")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/projects/{tenant.project_id}/surveys")
    page.get_by_label("Start from").select_option(label="Blank survey")
    page.get_by_label("Name", exact=True).fill("Plain forms")
    page.get_by_role("button", name="New survey").click()
    page.get_by_role("button", name="Add question").click()
    question = page.get_by_role("group", name="Question 1")
    question.get_by_label("Type").select_option(label="Multiple choice")
    question.get_by_role("textbox", name="Question 1 in en").fill("What do you use?")
    page.get_by_role("button", name="Refresh preview").click()  # the form comes back with two choices
    question.get_by_role("textbox", name="choice 1 in en").fill("Docs")
    question.get_by_role("textbox", name="choice 2 in en").fill("API")
    question.get_by_role("button", name="Add choice").click()
    question.get_by_role("textbox", name="choice 3 in en").fill("Widgets")
    page.get_by_role("button", name="Refresh preview").click()
    expect(page.locator("#survey-preview .mock-choices li")).to_have_text(["Docs", "API", "Widgets"])
    page.get_by_role("button", name="Activate").click()
    expect(page.get_by_role("status")).to_contain_text("Saved and activated")
    expect(page.locator("#survey-status")).to_have_text("active")
    survey = local_http.get(
        f"{base}/api/v1/projects/{tenant.project_id}/surveys", headers=tenant.headers
    ).json()["surveys"][0]
    assert [choice["text"]["en"] for choice in survey["questions"][0]["choices"]] == [
        "Docs",
        "API",
        "Widgets",
    ]
    context.close()
