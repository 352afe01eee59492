"""The survey widget's endpoints: the active list (ETag, CORS, cache), one survey's definition in one
language, and responses (every value checked, partial responses kept and added to)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import SurveyResponse
from tests.factories import Tenant
from tests.integration.surveys.conftest import ALLOWED, create_survey, every_type, submit, surveys_url


async def test_the_active_list_holds_what_the_loader_needs_with_an_etag(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    active = await create_survey(
        client, tenant, every_type(trigger={"pages": ["/docs/**"], "event": "signup"})
    )
    await create_survey(client, tenant, every_type(status="draft"))
    url = f"/api/v1/surveys/active?project_key={tenant.project_key}"
    response = await client.get(url, headers={"Origin": ALLOWED})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert response.json() == {
        "surveys": [
            {
                "id": active["id"],
                "trigger": {"pages": ["/docs/**"], "event": "signup"},
                "audience": {"sample_percent": 100, "verified_only": False, "languages": []},
                "cooldown_days": 90,
                "display": "modal",
                "languages": ["en", "de"],
            }
        ]
    }
    etag = response.headers["etag"]
    again = await client.get(url, headers={"Origin": ALLOWED, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


async def test_a_paused_survey_leaves_the_active_list_at_once(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type())
    url = f"/api/v1/surveys/active?project_key={tenant.project_key}"
    first = await client.get(url)
    assert [s["id"] for s in first.json()["surveys"]] == [survey["id"]]
    paused = await client.patch(
        surveys_url(tenant, f"/{survey['id']}"), json={"status": "paused"}, headers=tenant.headers
    )
    assert paused.status_code == 200
    second = await client.get(url, headers={"If-None-Match": first.headers["etag"]})
    assert second.status_code == 200
    assert second.json() == {"surveys": []}


async def test_the_active_list_refuses_a_foreign_origin_and_an_unknown_key(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = f"/api/v1/surveys/active?project_key={tenant.project_key}"
    foreign = await client.get(url, headers={"Origin": "https://attacker.example"})
    assert foreign.status_code == 403
    assert "access-control-allow-origin" not in foreign.headers
    unknown = await client.get("/api/v1/surveys/active?project_key=0190b2b4-0000-7000-8000-000000000000")
    assert unknown.status_code == 404
    bad = await client.get("/api/v1/surveys/active?project_key=nope")
    assert bad.status_code == 400


async def test_the_definition_comes_in_the_visitors_language_or_the_default(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type())
    base = f"/api/v1/surveys/{survey['id']}/definition?project_key={tenant.project_key}"
    german = (await client.get(base + "&lang=de")).json()
    assert german["language"] == "de"
    assert german["questions"][0] == {"id": "score", "type": "nps", "text": "Empfehlen?", "required": True}
    assert german["questions"][2]["choices"] == [
        {"id": "free", "text": "Gratis"},
        {"id": "pro", "text": "Pro"},
    ]
    swedish = (await client.get(base + "&lang=sv")).json()
    assert swedish["language"] == "en"
    assert swedish["questions"][0]["text"] == "Recommend?"


async def test_answers_are_kept_as_given_and_a_later_call_adds_to_them(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type())
    first = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 9}], path="/docs/a")
    assert first.status_code == 200, first.text
    assert first.headers["access-control-allow-origin"] == ALLOWED
    response_id = first.json()["response_id"]
    later = await submit(
        client,
        tenant,
        survey["id"],
        [
            {"question_id": "uses", "value": ["docs", "api"]},
            {"question_id": "again", "value": True},
            {"question_id": "why", "value": "Fast"},
        ],
        response_id=response_id,
        completed=True,
    )
    assert later.json() == {"response_id": response_id}
    listed = await client.get(surveys_url(tenant, f"/{survey['id']}/responses"), headers=tenant.read_headers)
    (response,) = listed.json()["responses"]
    assert response["answers"] == [
        {"question_id": "score", "value": 9},
        {"question_id": "uses", "value": ["docs", "api"]},
        {"question_id": "again", "value": True},
        {"question_id": "why", "value": "Fast"},
    ]
    assert (response["completed"], response["path"], response["language"]) == (True, "/docs/a", "en")


@pytest.mark.parametrize(
    ("answer", "field"),
    [
        ({"question_id": "score", "value": 11}, "answers[0].value: question 'score'"),
        ({"question_id": "score", "value": True}, "answers[0].value: question 'score'"),
        ({"question_id": "score", "value": 7.5}, "answers[0].value: question 'score'"),
        ({"question_id": "stars", "value": 0}, "answers[0].value: question 'stars'"),
        ({"question_id": "stars", "value": "5"}, "answers[0].value: question 'stars'"),
        ({"question_id": "plan", "value": "gold"}, "answers[0].value: question 'plan'"),
        ({"question_id": "uses", "value": "docs"}, "answers[0].value: question 'uses'"),
        ({"question_id": "uses", "value": ["docs", "docs"]}, "answers[0].value: question 'uses'"),
        ({"question_id": "uses", "value": []}, "answers[0].value: question 'uses'"),
        ({"question_id": "again", "value": 1}, "answers[0].value: question 'again'"),
        ({"question_id": "why", "value": "x" * 5001}, "answers[0].value: question 'why'"),
        ({"question_id": "why", "value": 3}, "answers[0].value: question 'why'"),
        ({"question_id": "nope", "value": 3}, "answers[0].question_id: no question 'nope'"),
    ],
)
async def test_every_bad_value_is_400_naming_the_question(
    client: AsyncTestClient, tenant: Tenant, answer: dict[str, Any], field: str
) -> None:
    survey = await create_survey(client, tenant, every_type())
    response = await submit(client, tenant, survey["id"], [answer])
    assert response.status_code == 400, response.text
    assert response.json()["details"].startswith(field)


async def test_a_failed_later_call_loses_nothing_stored_before(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    survey = await create_survey(client, tenant, every_type())
    first = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 3}])
    response_id = first.json()["response_id"]
    bad = await submit(
        client,
        tenant,
        survey["id"],
        [{"question_id": "stars", "value": 4}, {"question_id": "plan", "value": "gold"}],
        response_id=response_id,
    )
    assert bad.status_code == 400
    async with session_maker() as session:
        stored = await session.scalar(select(SurveyResponse))
        assert stored is not None
        assert [a["question_id"] for a in stored.answers] == ["score"]


@pytest.mark.parametrize("status", ["paused", "completed"])
async def test_a_survey_that_is_not_active_takes_no_answers(
    client: AsyncTestClient, tenant: Tenant, status: str
) -> None:
    survey = await create_survey(client, tenant, every_type())
    await client.patch(
        surveys_url(tenant, f"/{survey['id']}"), json={"status": status}, headers=tenant.headers
    )
    response = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 3}])
    assert response.status_code == 400
    assert response.json()["details"] == f"survey_id: this survey is {status}: it takes no responses"


async def test_a_language_the_survey_lacks_and_a_missing_required_answer_are_400(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type())
    swedish = await submit(
        client, tenant, survey["id"], [{"question_id": "score", "value": 3}], language="sv"
    )
    assert swedish.status_code == 400
    assert swedish.json()["details"].startswith("language:")
    unanswered = await submit(
        client, tenant, survey["id"], [{"question_id": "why", "value": "Hm"}], completed=True
    )
    assert unanswered.status_code == 400
    assert "'score' is required" in unanswered.json()["details"]


async def test_a_verified_only_survey_refuses_anonymous_answers(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type(audience={"verified_only": True}))
    response = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 3}])
    assert response.status_code == 403
    assert response.json()["details"].startswith("user_signature:")


async def test_another_projects_survey_is_not_found_with_this_key(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    survey = await create_survey(client, other_tenant, every_type())
    response = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 3}])
    assert response.status_code == 404


async def test_the_submit_path_is_preflighted(client: AsyncTestClient, tenant: Tenant) -> None:
    survey = await create_survey(client, tenant, every_type())
    response = await client.options(
        f"/api/v1/surveys/{survey['id']}/responses/submit",
        headers={"Origin": ALLOWED, "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 204
    assert response.headers["access-control-allow-origin"] == ALLOWED


async def test_options_on_the_active_list_with_its_query_lists_the_methods(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    """Found by the schema checks: Litestar's own OPTIONS answer on a public GET with a query string was
    a 500 (the query check could not key its cache by that handler)."""
    response = await client.options(f"/api/v1/surveys/active?project_key={tenant.project_key}")
    assert response.status_code == 204
    assert response.headers["allow"] == "GET, OPTIONS"


async def test_answers_are_checked_against_the_questions_as_edited_since_the_last_submit(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    """Each worker keeps a survey's compiled questions: an edit must reach the very next submit."""
    survey = await create_survey(client, tenant, every_type())
    first = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 5}])
    assert first.status_code == 200
    questions = every_type()["questions"]
    questions[1]["scale"] = 10
    edited = await client.patch(
        surveys_url(tenant, f"/{survey['id']}"), json={"questions": questions}, headers=tenant.headers
    )
    assert edited.status_code == 200
    ten = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 10}])
    assert ten.status_code == 200
    questions[1]["scale"] = 5
    await client.patch(
        surveys_url(tenant, f"/{survey['id']}"), json={"questions": questions}, headers=tenant.headers
    )
    refused = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 10}])
    assert refused.status_code == 400
    assert refused.json()["details"].startswith(
        "answers[0].value: question 'stars' takes a whole number from 1 to 5"
    )
