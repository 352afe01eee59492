"""Erasure and retention cover survey responses like every other record: a person's responses (by user
id) and their survey links go, a project's old responses go, and the counters stay exact (recounted from
the rows), so results drop them too."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import SurveyLink, SurveyResponse, WebhookDelivery
from app.db.transactions import unit_of_work
from app.services.retention import run_due_retention
from app.surveys import response_writer
from app.timestamps import utc_now
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.counter_recount import assert_counters_match_rows
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit, surveys_url


async def count(session_maker: async_sessionmaker[AsyncSession], model: Any, *where: Any) -> int:
    async with session_maker() as session:
        return int(await session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def test_erasure_by_user_id_takes_their_responses_links_and_counts(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    async with unit_of_work(session_maker) as session:
        await WebhookEndpoints(session, operator_scope(tenant.org_id, "tests"), settings).create(
            url="https://hooks.example.com/h", events=["survey.response.completed"]
        )
    survey = await create_survey(client, tenant, every_type(trigger={"lifecycle_event": "churned"}))
    theirs = await create_survey(client, other_tenant, every_type())
    answer = [{"question_id": "score", "value": 2}, {"question_id": "plan", "value": "pro"}]
    for _ in range(2):
        stored = await submit(client, tenant, survey["id"], answer, submitted_by="user_42", completed=True)
        assert stored.status_code == 200, stored.text
    await submit(client, tenant, survey["id"], answer, submitted_by="user_43", completed=True)
    await submit(client, other_tenant, theirs["id"], answer, submitted_by="user_42")
    await client.post(
        f"/api/v1/projects/{tenant.project_id}/lifecycle-events",
        json={"event": "churned", "user": {"id": "user_42"}},
        headers=tenant.headers,
    )
    assert await count(session_maker, WebhookDelivery) == 3
    erased = await client.post(
        "/api/v1/privacy/erase", json={"submitted_by": "user_42"}, headers=tenant.headers
    )
    assert erased.json() == {
        "feedback": 0,
        "ratings": 0,
        "contact_messages": 0,
        "survey_responses": 2,
        "conversations": 0,
        "ideas": 0,
        "idea_votes": 0,
        "idea_comments": 0,
    }
    assert await count(session_maker, SurveyResponse, SurveyResponse.submitted_by == "user_42") == 1  # theirs
    assert await count(session_maker, SurveyLink) == 0
    assert await count(session_maker, WebhookDelivery) == 1  # the copies of the erased responses go too
    async with session_maker() as session:
        await assert_counters_match_rows(session)
    results = await client.get(surveys_url(tenant, f"/{survey['id']}/results"), headers=tenant.headers)
    assert (results.json()["responses"], results.json()["completed"]) == (1, 1)


async def test_retention_takes_old_responses_with_their_counts(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    survey = await create_survey(client, tenant, every_type())
    answer = [{"question_id": "score", "value": 5}, {"question_id": "uses", "value": ["docs", "api"]}]
    old = utc_now() - timedelta(days=40)
    monkeypatch.setattr(response_writer, "utc_now", lambda: old)
    for _ in range(5):
        await submit(client, tenant, survey["id"], answer, completed=True)
    monkeypatch.undo()
    await submit(client, tenant, survey["id"], answer)
    await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"retention_days": 30}, headers=tenant.headers
    )
    (removed,) = await run_due_retention(session_maker, batch=2)
    assert removed.survey_responses == 5
    assert await count(session_maker, SurveyResponse) == 1
    async with session_maker() as session:
        await assert_counters_match_rows(session)
    results = await client.get(surveys_url(tenant, f"/{survey['id']}/results"), headers=tenant.headers)
    assert (results.json()["responses"], results.json()["completed"]) == (1, 0)
