"""The console's Surveys tab: a survey from a template or blank, the builder with its texts side by side
per language (its list buttons work without JavaScript), refusals shown beside the field they name,
"Activate"/"Pause", the live preview, delete, members reading only, and another organization's
surveys not found."""

from __future__ import annotations

import json
import re
from typing import Any

from app.db.models import User
from tests.console_helpers import Console, add_user
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit

SURVEY_URL = re.compile(r"/projects/[0-9a-f-]{36}/surveys/([0-9a-f-]{36})")


def error_beside(html: str, key: str) -> str | None:
    """The message shown beside the input named `key` (its id as the builder writes it)."""
    slug = key.replace("[", "-").replace("]", "").replace(".", "-")
    match = re.search(rf'<p class="error" id="e-{re.escape(slug)}">([^<]+)</p>', html)
    return match.group(1) if match else None


def value_of(html: str, name: str) -> str | None:
    """The value an input named `name` shows."""
    match = re.search(rf'name="{re.escape(name)}"[^>]*? value="([^"]*)"', html)
    return match.group(1) if match else None


def form(**fields: Any) -> dict[str, Any]:
    """A builder form as a browser posts it: the basics filled, the given fields over them."""
    return {
        "name": "Onboarding",
        "languages": "en, de",
        "display": "modal",
        "trigger.pages": "",
        "trigger.exclude_pages": "",
        "audience.sample_percent": "100",
        "cooldown_days": "90",
        **fields,
    }


TWO_QUESTIONS = {
    "questions[0].id": "easy",
    "questions[0].type": "single_choice",
    "questions[0].required": "true",
    "questions[0].text.en": "Was it easy to start?",
    "questions[0].text.de": "War der Einstieg leicht?",
    "questions[0].choices[0].id": "yes",
    "questions[0].choices[0].text.en": "Yes",
    "questions[0].choices[0].text.de": "Ja",
    "questions[0].choices[1].id": "no",
    "questions[0].choices[1].text.en": "No",
    "questions[0].choices[1].text.de": "Nein",
    "questions[0].next[0].if": "yes",
    "questions[0].next[0].goto": "end",
    "questions[1].id": "why",
    "questions[1].type": "open_text",
    "questions[1].text.en": "What held you up?",
    "questions[1].text.de": "Was hat Sie aufgehalten?",
}


async def new_survey(console: Console, tenant: Tenant, **fields: str) -> str:
    created = await console.post(
        f"/projects/{tenant.project_id}/surveys", fields or {"template": "nps"}, follow_redirects=False
    )
    assert created.status_code == 303, created.text
    match = SURVEY_URL.search(created.headers["location"])
    assert match is not None
    return match.group(1)


async def api_survey(console: Console, tenant: Tenant, survey_id: str) -> dict[str, Any]:
    response = await console.client.get(
        f"/api/v1/projects/{tenant.project_id}/surveys/{survey_id}", headers=tenant.headers
    )
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


async def test_new_survey_from_a_template_lists_with_its_languages(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    listing = (await console.get(f"/projects/{tenant.project_id}")).text
    assert f'href="/projects/{tenant.project_id}/surveys"' in listing and ">Surveys</a>" in listing
    page = (await console.get(f"/projects/{tenant.project_id}/surveys")).text
    assert "No surveys yet." in page and ">New survey</button>" in page
    for template in ("nps", "csat", "ces", "pmf", "churn_reason"):
        assert f'<option value="{template}"' in page
    survey_id = await new_survey(console, tenant)
    builder = (await console.get(f"/projects/{tenant.project_id}/surveys/{survey_id}?created=1")).text
    assert "Created as a draft" in builder
    assert "How likely are you to recommend us to a friend or colleague?" in builder
    assert "Wie wahrscheinlich ist es, dass Sie uns einem Freund oder Kollegen empfehlen?" in builder
    assert 'name="questions[0].text.sv"' in builder and ">Activate</button>" in builder
    listing = (await console.get(f"/projects/{tenant.project_id}/surveys")).text
    row = re.search(r"<tr>\s*<th scope=\"row\">.*?</tr>", listing, re.S)
    assert row is not None
    assert "Net Promoter Score" in row.group(0) and "draft" in row.group(0)
    assert re.findall(r'<span class="lang">(\w+)</span>', row.group(0)) == ["en", "de", "sv"]
    assert '<td class="num">0</td>' in row.group(0)


async def test_a_new_survey_is_checked_like_the_api_checks_it(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/surveys"
    refused = await console.post(url, {"template": "", "name": ""})
    assert refused.status_code == 400
    assert 'id="e-name"' in refused.text and "Required" in refused.text
    too_long = await console.post(url, {"template": "", "name": "n" * 201})
    assert too_long.status_code == 400
    assert re.search(r'id="e-name">One line of 1 to 200 characters<', too_long.text)
    two_lines = await console.post(url, {"template": "nps", "name": "NPS\nsecond line"})
    assert two_lines.status_code == 400 and 'id="e-name"' in two_lines.text
    unknown = await console.post(url, {"template": "quiz", "name": ""})
    assert unknown.status_code == 400 and 'id="e-template"' in unknown.text
    assert "No surveys yet." in (await console.get(url)).text


async def test_build_with_translations_and_the_list_buttons_without_javascript(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant, template="", name="Onboarding")
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    added = await console.post(url, form(action="add_question"))
    assert added.status_code == 200
    assert value_of(added.text, "questions[0].id") == "q1"
    assert re.search(r'name="questions\[0\]\.id"[^>]* autofocus', added.text)  # where the typing goes on
    assert 'name="questions[0].text.en"' in added.text and 'name="questions[0].text.de"' in added.text
    retyped = await console.post(
        url, form(**{"questions[0].id": "easy", "questions[0].type": "single_choice", "action": "refresh"})
    )
    # a choice question comes back with its two choices to fill in, in each language
    assert 'name="questions[0].choices[1].text.de"' in retyped.text
    assert 'name="questions[0].choices[2].id"' not in retyped.text
    more = await console.post(url, form(**TWO_QUESTIONS, action="add_choice:0"))
    assert value_of(more.text, "questions[0].choices[2].id") == "choice-3"
    assert value_of(more.text, "questions[0].choices[1].text.de") == "Nein"
    saved = await console.post(url, form(**TWO_QUESTIONS, action="save"))
    assert saved.status_code == 200 and "Saved." in saved.text
    survey = await api_survey(console, tenant, survey_id)
    assert survey["languages"] == ["en", "de"]
    assert survey["questions"][0]["text"] == {"en": "Was it easy to start?", "de": "War der Einstieg leicht?"}
    assert survey["questions"][0]["choices"][1] == {"id": "no", "text": {"en": "No", "de": "Nein"}}
    assert survey["questions"][0]["next"] == [{"if": "yes", "goto": "end"}]
    assert survey["questions"][1]["required"] is False
    moved = await console.post(url, form(**TWO_QUESTIONS, action="down:0"))
    assert [value_of(moved.text, f"questions[{n}].id") for n in (0, 1)] == ["why", "easy"]
    removed = await console.post(url, form(**TWO_QUESTIONS, action="remove_question:0"))
    assert value_of(removed.text, "questions[0].id") == "why"
    assert value_of(removed.text, "questions[1].id") is None
    assert len((await api_survey(console, tenant, survey_id))["questions"]) == 2  # only Save saves


async def test_refusals_are_shown_beside_their_fields(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant, template="", name="Onboarding")
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    bad_id = await console.post(url, form(**{**TWO_QUESTIONS, "questions[1].id": "Why?"}, action="save"))
    assert bad_id.status_code == 400
    assert error_beside(bad_id.text, "questions[1].id") == "Use a to z, 0 to 9, _ and -: 1 to 40 characters"
    assert 'value="Why?"' in bad_id.text and "War der Einstieg leicht?" in bad_id.text  # kept as typed
    assert 'aria-invalid="true"' in bad_id.text
    bad_glob = await console.post(url, form(**TWO_QUESTIONS, **{"trigger.pages": "/docs/*\n/a***"}))
    assert bad_glob.status_code == 400
    message = error_beside(bad_glob.text, "trigger.pages")
    assert message is not None and message.startswith("Item 2: ")
    bad_number = await console.post(url, form(**TWO_QUESTIONS, **{"trigger.seconds_on_page": "soon"}))
    assert error_beside(bad_number.text, "trigger.seconds_on_page") == "Must be a whole number"
    untranslated = {**TWO_QUESTIONS, "questions[1].text.de": ""}
    saved = await console.post(url, form(**untranslated, action="save"))
    assert saved.status_code == 200  # a draft may miss a translation
    refused = await console.post(url, form(**untranslated, action="activate"))
    assert refused.status_code == 400 and "The survey was not activated." in refused.text
    assert error_beside(refused.text, "questions[1].text.de") == (
        "Missing: an active survey has every text in each of its languages"
    )
    assert 'id="survey-status">draft<' in refused.text
    assert (await api_survey(console, tenant, survey_id))["status"] == "draft"
    backwards = {**TWO_QUESTIONS, "questions[1].next[0].if": "x"}
    skip = await console.post(url, form(**backwards, action="save"))
    assert skip.status_code == 200  # open text has no skip logic: the unusable rule is not offered


async def test_activate_and_pause(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant, template="", name="Onboarding")
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    activated = await console.post(url, form(**TWO_QUESTIONS, action="activate"))
    assert activated.status_code == 200, activated.text
    assert 'id="survey-status">active<' in activated.text and ">Pause</button>" in activated.text
    assert (await api_survey(console, tenant, survey_id))["status"] == "active"
    paused = await console.htmx_post(url, form(**TWO_QUESTIONS, action="pause"))
    assert paused.status_code == 200 and paused.text.lstrip().startswith('<div id="survey-builder">')
    assert 'id="survey-status">paused<' in paused.text and ">Activate</button>" in paused.text
    assert (await api_survey(console, tenant, survey_id))["status"] == "paused"


async def test_live_preview_in_the_chosen_language(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant, template="", name="Onboarding")
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    fields = form(**{**TWO_QUESTIONS, "questions[1].text.de": ""}, preview_language="de", display="banner")
    preview = await console.htmx_post(f"{url}/preview", fields)
    assert preview.status_code == 200 and "<html" not in preview.text
    assert 'class="mock-page display-banner" lang="de"' in preview.text
    assert (
        "War der Einstieg leicht?" in preview.text and ">Nein<" in preview.text and "Senden" in preview.text
    )
    assert '<p class="mock-text missing">What held you up?' in preview.text
    assert "1 text not yet written in <strong>de</strong>" in preview.text


async def test_survey_texts_and_names_are_escaped(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant, template="", name="<b>bold</b>")
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    hostile = {**TWO_QUESTIONS, "questions[1].text.en": "<img src=x onerror=alert(1)>"}
    page = await console.post(url, form(**hostile, name="<script>x</script>", action="save"))
    assert "<script>x</script>" not in page.text and "&lt;script&gt;x&lt;/script&gt;" in page.text
    assert "<img src=x" not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text


async def test_delete_asks_first(console: Console, owner: User, tenant: Tenant) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant)
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    confirm = (await console.get(f"{url}/delete")).text
    assert "Delete “Net Promoter Score”?" in confirm and ">Delete survey</button>" in confirm
    deleted = await console.post(f"{url}/delete", {}, follow_redirects=True)
    assert "Deleted the survey and its responses." in deleted.text and "No surveys yet." in deleted.text
    assert (await console.get(url)).status_code == 404


async def test_members_read_but_do_not_change(
    console: Console, owner: User, tenant: Tenant, session_maker: Any
) -> None:
    await console.login(owner.email)
    survey_id = await new_survey(console, tenant)
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}"
    await console.post("/logout", {})
    await add_user(session_maker, tenant.org_id, "reader@org-a.example", "member")
    await console.login("reader@org-a.example")
    listing = (await console.get(f"/projects/{tenant.project_id}/surveys")).text
    assert "Net Promoter Score" in listing and ">New survey</button>" not in listing
    page = (await console.get(url, params={"preview_language": "sv"})).text
    assert "How likely are you to recommend us" in page and 'lang="sv"' in page
    assert ">Save</button>" not in page and ">Activate</button>" not in page and ">Delete<" not in page
    assert '<fieldset class="builder-fields" disabled>' in page
    refused = await console.post(url, form(action="activate"))
    assert refused.status_code == 403
    assert (
        await console.post(f"/projects/{tenant.project_id}/surveys", {"template": "csat"})
    ).status_code == 403
    assert (await console.post(f"{url}/delete", {})).status_code == 403
    assert (await api_survey(console, tenant, survey_id))["status"] == "draft"


async def test_another_organizations_survey_is_not_found(
    console: Console, owner: User, tenant: Tenant, other_tenant: Tenant, session_maker: Any
) -> None:
    await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    await console.login("owner@org-b.example")
    theirs = await new_survey(console, other_tenant)
    await console.post("/logout", {})
    await console.login(owner.email)
    mine = await new_survey(console, tenant)
    for url in (
        f"/projects/{other_tenant.project_id}/surveys/{theirs}",  # their project
        f"/projects/{tenant.project_id}/surveys/{theirs}",  # their survey under my project
    ):
        assert (await console.get(url)).status_code == 404
        assert (await console.post(url, form(action="activate"))).status_code == 404
        assert (await console.htmx_post(f"{url}/preview", form())).status_code == 404
        assert (await console.get(f"{url}/delete")).status_code == 404
        assert (await console.post(f"{url}/delete", {})).status_code == 404
    assert (await console.get(f"/projects/{other_tenant.project_id}/surveys")).status_code == 404
    assert (await console.get(f"/projects/{tenant.project_id}/surveys/{mine}")).status_code == 200


async def answered_survey(console: Console, tenant: Tenant) -> str:
    """A survey with a question of each type and three responses (one partial, one in German)."""
    survey = await create_survey(console.client, tenant, every_type())
    answers = [
        (
            "en",
            True,
            {"score": 10, "stars": 4, "plan": "pro", "uses": ["docs", "api"], "again": True, "why": "Fast"},
        ),
        (
            "de",
            True,
            {"score": 3, "stars": 2, "plan": "free", "uses": ["docs"], "again": False, "why": HOSTILE},
        ),
        ("en", False, {"score": 8}),
    ]
    for language, completed, values in answers:
        sent = await submit(
            console.client,
            tenant,
            survey["id"],
            [{"question_id": key, "value": value} for key, value in values.items()],
            language=language,
            completed=completed,
        )
        assert sent.status_code == 200, sent.text
    return str(survey["id"])


HOSTILE = "<script>alert('visitor')</script>"


async def test_results_with_charts_and_filters(console: Console, owner: User, tenant: Tenant) -> None:
    survey_id = await answered_survey(console, tenant)
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}/results"
    page = (await console.get(url)).text
    assert re.search(r'id="result-responses">3<', page) and re.search(r'id="result-completed">2<', page)
    assert re.search(r'id="nps-score">0<', page)  # one promoter, one passive, one detractor
    assert "<strong>1</strong> promoters" in page and "<strong>1</strong> detractors" in page
    assert '<rect class="bar promoter"' in page and '<rect class="bar detractor"' in page
    assert 'role="img" aria-label="Answers to score: 0: 0 (0 %); 1: 0 (0 %)' in page
    assert "; 8: 1 (33 %); 9: 0 (0 %); 10: 1 (33 %)" in page
    shares = dict(
        re.findall(r'share-label">(\w+)</span>.*?share-count">(\d+ <span class="muted">· \d+ %)', page, re.S)
    )
    assert shares["Free"] == shares["Pro"] == shares["Yes"] == '1 <span class="muted">· 50 %'
    assert shares["Docs"] == '2 <span class="muted">· 100 %'  # of those who answered, several choices each
    assert "3.0" in page  # the mean rating
    assert "Fast" in page and HOSTILE not in page and "&lt;script&gt;alert(" in page
    german = (await console.get(url, params={"language": "de"})).text
    assert re.search(r'id="result-responses">1<', german) and re.search(r'id="nps-score">-100<', german)
    later = (await console.get(url, params={"since": "2999-01-01"})).text
    assert re.search(r'id="result-responses">0<', later) and "No answers in this period yet." in later
    refused = await console.get(url, params={"since": "yesterday"})
    assert refused.status_code == 400 and 'id="e-since"' in refused.text


async def test_responses_list_and_downloads(console: Console, owner: User, tenant: Tenant) -> None:
    survey_id = await answered_survey(console, tenant)
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/surveys/{survey_id}/responses"
    page = (await console.get(url)).text
    assert page.count('<td class="answers">') == 3
    assert HOSTILE not in page and "&lt;script&gt;alert(" in page
    assert "docs, api" in page and ">Yes<" in page and ">partial<" in page
    completed = (await console.get(url, params={"completed": "true", "language": "de"})).text
    assert completed.count('<td class="answers">') == 1
    assert f'href="{url}/export?completed=true&amp;language=de&amp;format=csv"' in completed
    assert f'href="{url}/export?completed=true&amp;language=de&amp;format=ndjson"' in completed
    csv = await console.get(f"{url}/export", params={"completed": "true", "format": "csv"})
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert len(csv.text.strip().splitlines()) == 3  # a header and two completed responses
    ndjson = await console.get(f"{url}/export", params={"language": "de", "format": "ndjson"})
    lines = [json.loads(line) for line in ndjson.text.strip().splitlines()]
    assert [line["language"] for line in lines] == ["de"]
    assert (await console.get(url, params={"completed": "maybe"})).status_code == 400


async def test_the_list_pages(console: Console, owner: User, tenant: Tenant) -> None:
    for n in range(21):
        await create_survey(console.client, tenant, {"template": "csat", "name": f"Pulse {n:02d}"})
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/surveys"
    first = (await console.get(url)).text
    assert first.count('<th scope="row">') == 20 and "Page 1 of 2" in first and "Pulse 20" in first
    assert f'href="{url}?page=2"' in first
    second = (await console.get(url, params={"page": "2"})).text
    assert second.count('<th scope="row">') == 1 and "Pulse 00" in second
