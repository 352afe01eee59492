"""The survey widget's endpoints spend the public budgets like the other public submits: each endpoint
its own window per client, a spent one 429 with Retry-After, and the response is never stored."""

from __future__ import annotations

from dataclasses import replace

import pytest
from litestar.testing import AsyncTestClient

from app.config import RateLimit, Settings
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit, surveys_url


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return replace(settings, rate_limit_client=RateLimit(2, 60))


async def test_each_survey_endpoint_has_its_client_budget(client: AsyncTestClient, tenant: Tenant) -> None:
    survey = await create_survey(client, tenant, every_type())
    active = f"/api/v1/surveys/active?project_key={tenant.project_key}"
    assert [(await client.get(active)).status_code for _ in range(3)] == [200, 200, 429]
    limited = await client.get(active)
    assert limited.json()["error"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
    answer = [{"question_id": "score", "value": 5}]
    statuses = [(await submit(client, tenant, survey["id"], answer)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]  # a window of its own: the active list's spent one does not count
    listed = await client.get(surveys_url(tenant, f"/{survey['id']}/responses"), headers=tenant.headers)
    assert listed.json()["pagination"]["total"] == 2
