"""A survey's results through the API (every language in one, filters), its responses list and
exports, the survey.response.completed event, spam, verified users and completion by max_responses and
ends_at."""

from __future__ import annotations

import asyncio
import csv
import hashlib
import hmac
import io
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import WebhookDelivery
from app.db.transactions import unit_of_work
from app.surveys.completion import complete_due_surveys
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit, surveys_url


async def results(client: AsyncTestClient, tenant: Tenant, survey_id: str, query: str = "") -> dict[str, Any]:
    response = await client.get(
        surveys_url(tenant, f"/{survey_id}/results{query}"), headers=tenant.read_headers
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_every_language_counts_in_one_result(client: AsyncTestClient, tenant: Tenant) -> None:
    survey = await create_survey(client, tenant, every_type())
    sid = survey["id"]
    for language, score, stars, plan, uses, again in (
        ("en", 10, 5, "pro", ["docs", "api"], True),
        ("de", 9, 4, "pro", ["docs"], True),
        ("de", 3, 1, "free", ["ui"], False),
    ):
        answers = [
            {"question_id": "score", "value": score},
            {"question_id": "stars", "value": stars},
            {"question_id": "plan", "value": plan},
            {"question_id": "uses", "value": uses},
            {"question_id": "again", "value": again},
            {"question_id": "why", "value": "Because"},
        ]
        stored = await submit(client, tenant, sid, answers, language=language, completed=True)
        assert stored.status_code == 200, stored.text
    await submit(client, tenant, sid, [{"question_id": "stars", "value": 2}])  # partial: counts too
    body = await results(client, tenant, sid)
    assert (body["responses"], body["completed"]) == (4, 3)
    by_id = {q["id"]: q for q in body["questions"]}
    assert by_id["score"]["nps"] == {"score": 33, "promoters": 2, "passives": 0, "detractors": 1}
    assert by_id["score"]["distribution"]["10"] == 1
    assert by_id["stars"] == {
        "id": "stars",
        "type": "rating",
        "answers": 4,
        "distribution": {"1": 1, "2": 1, "3": 0, "4": 1, "5": 1},
        "mean": 3.0,
    }
    assert by_id["plan"]["choices"] == {"free": 1, "pro": 2}
    assert by_id["uses"]["choices"] == {"docs": 2, "api": 1, "ui": 1}
    assert by_id["uses"]["answers"] == 3
    assert by_id["again"]["choices"] == {"true": 2, "false": 1}
    assert by_id["why"]["answers"] == 3
    german = await results(client, tenant, sid, "?language=de")
    assert (german["responses"], german["completed"]) == (2, 2)
    today = datetime.now(UTC).date()
    assert (await results(client, tenant, sid, f"?until={today - timedelta(days=1)}"))["responses"] == 0
    assert (await results(client, tenant, sid, f"?since={today}&until={today}"))["responses"] == 4
    bad = await client.get(surveys_url(tenant, f"/{sid}/results?since=soon"), headers=tenant.headers)
    assert bad.status_code == 400
    assert bad.json()["details"].startswith("since:")


async def test_an_amended_response_moves_its_counts(client: AsyncTestClient, tenant: Tenant) -> None:
    survey = await create_survey(client, tenant, every_type())
    first = await submit(client, tenant, survey["id"], [{"question_id": "plan", "value": "free"}])
    await submit(
        client,
        tenant,
        survey["id"],
        [{"question_id": "plan", "value": "pro"}, {"question_id": "score", "value": 8}],
        response_id=first.json()["response_id"],
        completed=True,
    )
    body = await results(client, tenant, survey["id"])
    by_id = {q["id"]: q for q in body["questions"]}
    assert by_id["plan"]["choices"] == {"free": 0, "pro": 1}
    assert (body["responses"], body["completed"]) == (1, 1)


async def test_lists_filter_and_exports_hold_the_answers(client: AsyncTestClient, tenant: Tenant) -> None:
    survey = await create_survey(client, tenant, every_type())
    sid = survey["id"]
    await submit(client, tenant, sid, [{"question_id": "why", "value": "=HYPERLINK(1)"}], language="de")
    await submit(client, tenant, sid, [{"question_id": "score", "value": 7}], completed=True)
    url = surveys_url(tenant, f"/{sid}/responses")
    done = (await client.get(url + "?completed=true", headers=tenant.headers)).json()
    assert [r["answers"] for r in done["responses"]] == [[{"question_id": "score", "value": 7}]]
    assert done["pagination"]["total"] == 1
    german = (await client.get(url + "?language=de", headers=tenant.headers)).json()
    assert german["responses"][0]["language"] == "de"
    assert set(german["responses"][0]) == {
        "id",
        "survey_id",
        "answers",
        "language",
        "path",
        "completed",
        "submitted_by",
        "submitted_by_verified",
        "created_at",
    }
    exported = await client.get(url + "/export", headers=tenant.headers)
    assert exported.status_code == 200
    assert "survey-responses" in exported.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(exported.text.removeprefix("\ufeff"))))
    assert len(rows) == 2
    assert json.loads(rows[0]["answers"]) == [{"question_id": "score", "value": 7}]
    assert rows[1]["answers"].startswith("[")  # the formula sits inside JSON text, never at a cell's start
    ndjson = await client.get(url + "/export?format=ndjson&completed=false", headers=tenant.headers)
    lines = [json.loads(line) for line in ndjson.text.splitlines()]
    assert [line["answers"][0]["value"] for line in lines] == ["=HYPERLINK(1)"]


async def test_a_completed_response_is_announced_once_and_spam_never(
    client: AsyncTestClient,
    tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    async with unit_of_work(session_maker) as session:
        await WebhookEndpoints(session, operator_scope(tenant.org_id, "tests"), settings).create(
            url="https://hooks.example.com/h", events=["survey.response.completed"]
        )
    survey = await create_survey(client, tenant, every_type())
    first = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 9}])
    rid = first.json()["response_id"]
    await submit(
        client, tenant, survey["id"], [{"question_id": "why", "value": "Ok"}], response_id=rid, completed=True
    )
    await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 3}], response_id=rid)
    spam = await submit(
        client,
        tenant,
        survey["id"],
        [{"question_id": "score", "value": 1}],
        completed=True,
        website="http://x",
    )
    assert spam.status_code == 200
    async with session_maker() as session:
        deliveries = list(await session.scalars(select(WebhookDelivery)))
    assert [d.event_type for d in deliveries] == ["survey.response.completed"]
    event = json.loads(deliveries[0].body)
    assert event["data"]["id"] == rid
    assert event["data"]["survey_name"] == "Every type"
    assert event["data"]["answers"] == [
        {"question_id": "score", "value": 9},
        {"question_id": "why", "value": "Ok"},
    ]
    body = await results(client, tenant, survey["id"])
    assert body["responses"] == 1  # spam is stored, counted nowhere
    listed = await client.get(surveys_url(tenant, f"/{survey['id']}/responses"), headers=tenant.headers)
    assert [r["id"] for r in listed.json()["responses"]] == [rid]


async def test_a_signed_user_is_stored_verified(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await client.post(
        f"/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers
    )
    secret = created.json()["secret"]
    signature = hmac.new(secret.encode(), b"user_42", hashlib.sha256).hexdigest()
    survey = await create_survey(client, tenant, every_type(audience={"verified_only": True}))
    answer = [{"question_id": "score", "value": 9}]
    forged = await submit(
        client, tenant, survey["id"], answer, submitted_by="user_43", user_signature=signature
    )
    assert forged.status_code == 403
    stored = await submit(
        client, tenant, survey["id"], answer, submitted_by="user_42", user_signature=signature
    )
    assert stored.status_code == 200, stored.text
    listed = await client.get(surveys_url(tenant, f"/{survey['id']}/responses"), headers=tenant.headers)
    (response,) = listed.json()["responses"]
    assert (response["submitted_by"], response["submitted_by_verified"]) == ("user_42", True)


async def test_max_responses_completes_the_survey_on_the_last_submit(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    survey = await create_survey(client, tenant, every_type(max_responses=2))
    answer = [{"question_id": "score", "value": 9}]
    await submit(client, tenant, survey["id"], answer)  # partial: not counted against the limit
    for _ in range(2):
        assert (await submit(client, tenant, survey["id"], answer, completed=True)).status_code == 200
    got = await client.get(surveys_url(tenant, f"/{survey['id']}"), headers=tenant.headers)
    assert (got.json()["status"], got.json()["response_count"]) == ("completed", 3)
    late = await submit(client, tenant, survey["id"], answer, completed=True)
    assert late.status_code == 400
    active = await client.get(f"/api/v1/surveys/active?project_key={tenant.project_key}")
    assert active.json() == {"surveys": []}


async def test_the_periodic_look_completes_ended_and_full_surveys(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    soon = (datetime.now(UTC) + timedelta(milliseconds=300)).isoformat()
    ended = await create_survey(client, tenant, every_type(ends_at=soon))
    full = await create_survey(client, tenant, every_type())
    still = await create_survey(client, tenant, every_type(ends_at="2099-01-01T00:00:00Z", max_responses=5))
    await submit(client, tenant, full["id"], [{"question_id": "score", "value": 9}], completed=True)
    lowered = await client.patch(
        surveys_url(tenant, f"/{full['id']}"), json={"max_responses": 1}, headers=tenant.headers
    )
    assert lowered.json()["status"] == "active"
    await asyncio.sleep(0.4)
    assert await complete_due_surveys(session_maker) == 2
    statuses = {}
    for survey in (ended, full, still):
        got = await client.get(surveys_url(tenant, f"/{survey['id']}"), headers=tenant.headers)
        statuses[survey["id"]] = got.json()["status"]
    assert statuses == {ended["id"]: "completed", full["id"]: "completed", still["id"]: "active"}
    active = await client.get(f"/api/v1/surveys/active?project_key={tenant.project_key}")
    assert [s["id"] for s in active.json()["surveys"]] == [still["id"]]
    assert await complete_due_surveys(session_maker) == 0
