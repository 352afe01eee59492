"""Lifecycle events: a single-use link per active survey the event triggers, for the customer's mailer;
the hosted page it opens (no JavaScript, the user's language), whose answers are stored verified as the
user's, once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import SurveyLink
from app.timestamps import utc_now
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, surveys_url


def churn(**fields: Any) -> dict[str, Any]:
    return every_type(trigger={"lifecycle_event": "trial_expired"}, **fields)


async def links(
    client: AsyncTestClient, tenant: Tenant, user: dict[str, Any], event: str = "trial_expired"
) -> Any:
    return await client.post(
        f"/api/v1/projects/{tenant.project_id}/lifecycle-events",
        json={"event": event, "user": user},
        headers=tenant.headers,
    )


def path_of(url: str) -> str:
    return "/" + url.split("/", 3)[3]


async def test_one_link_per_survey_the_event_triggers(client: AsyncTestClient, tenant: Tenant) -> None:
    first = await create_survey(client, tenant, churn())
    second = await create_survey(client, tenant, churn(name="Second"))
    await create_survey(client, tenant, churn(status="draft"))
    await create_survey(client, tenant, every_type(trigger={"lifecycle_event": "upgraded"}))
    response = await links(client, tenant, {"id": "user_1", "email": "ada@example.com", "language": "de"})
    assert response.status_code == 200, response.text
    issued = response.json()["surveys"]
    assert [link["survey_id"] for link in issued] == [first["id"], second["id"]]
    assert all(link["url"].startswith("http://127.0.0.1:8000/survey/") for link in issued)
    assert issued[0]["url"] != issued[1]["url"]
    none = await links(client, tenant, {"id": "user_1"}, event="nothing_listens")
    assert none.json() == {"surveys": []}


async def test_a_read_token_cannot_make_links_and_bad_bodies_are_400(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    url = f"/api/v1/projects/{tenant.project_id}/lifecycle-events"
    body = {"event": "trial_expired", "user": {"id": "user_1"}}
    assert (await client.post(url, json=body, headers=tenant.read_headers)).status_code == 403
    bad = await client.post(
        url, json={"event": "trial_expired", "user": {"id": "a b"}}, headers=tenant.headers
    )
    assert bad.status_code == 400
    assert "user.id" in bad.json()["details"]


async def test_the_hosted_page_stores_the_users_answers_verified_once(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    survey = await create_survey(client, tenant, churn())
    (link,) = (await links(client, tenant, {"id": "user_7", "language": "de"})).json()["surveys"]
    page = await client.get(path_of(link["url"]))
    assert page.status_code == 200
    assert '<html lang="de">' in page.text
    assert "Empfehlen?" in page.text and "Antworten senden" in page.text
    assert "<script" not in page.text
    form = {"q_score": "9", "q_uses": ["docs", "ui"], "q_again": "true", "q_why": "Gut"}
    answered = await client.post(path_of(link["url"]), data=form)
    assert answered.status_code == 200, answered.text
    assert "Vielen Dank" in answered.text
    listed = await client.get(surveys_url(tenant, f"/{survey['id']}/responses"), headers=tenant.headers)
    (response,) = listed.json()["responses"]
    assert response["answers"] == [
        {"question_id": "score", "value": 9},
        {"question_id": "uses", "value": ["docs", "ui"]},
        {"question_id": "again", "value": True},
        {"question_id": "why", "value": "Gut"},
    ]
    assert (response["submitted_by"], response["submitted_by_verified"]) == ("user_7", True)
    assert (response["language"], response["completed"]) == ("de", True)
    again = await client.post(path_of(link["url"]), data=form)
    assert again.status_code == 410
    assert "already been used" in again.text
    async with session_maker() as session:
        stored = await session.scalar(select(SurveyLink))
        assert stored is not None and stored.used_at is not None
        assert stored.token_digest not in link["url"]
    assert (await client.get(surveys_url(tenant, f"/{survey['id']}"), headers=tenant.headers)).json()[
        "response_count"
    ] == 1


async def test_a_bad_answer_comes_back_beside_its_question_and_keeps_the_link(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    await create_survey(client, tenant, churn())
    (link,) = (await links(client, tenant, {"id": "user_7", "language": "sv"})).json()["surveys"]
    refused = await client.post(path_of(link["url"]), data={"q_why": "Hej", "q_stars": "9"})
    assert refused.status_code == 400
    assert '<html lang="en">' in refused.text  # the survey has no Swedish: its default language
    assert "Please check this answer." in refused.text  # stars 9 is off the scale
    assert "Hej" in refused.text  # what was entered is kept
    missing = await client.post(path_of(link["url"]), data={"q_why": "Hej"})
    assert missing.status_code == 400
    assert "Please answer this question." in missing.text  # score is required
    stored = await client.post(path_of(link["url"]), data={"q_score": "3"})
    assert stored.status_code == 200


async def test_an_expired_unknown_or_closed_link_opens_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    survey = await create_survey(client, tenant, churn())
    (link,) = (await links(client, tenant, {"id": "user_7"})).json()["surveys"]
    unknown = await client.get("/survey/not-a-token")
    assert unknown.status_code == 410
    async with session_maker() as session:
        await session.execute(update(SurveyLink).values(expires_at=utc_now() - timedelta(seconds=1)))
        await session.commit()
    expired = await client.get(path_of(link["url"]), headers={"Accept-Language": "sv"})
    assert expired.status_code == 410
    assert "har gått ut" in expired.text
    (fresh,) = (await links(client, tenant, {"id": "user_8"})).json()["surveys"]
    await client.patch(
        surveys_url(tenant, f"/{survey['id']}"), json={"status": "paused"}, headers=tenant.headers
    )
    closed = await client.post(path_of(fresh["url"]), data={"q_score": "3"})
    assert closed.status_code == 410
    assert "closed" in closed.text
