"""Themes of open-text answers through the insights engine: each answer is embedded after its commit
(here by a local fake of an OpenAI-compatible embeddings service) and a result groups the answers that
say the same thing, in every language of the survey, with the results' filters."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.main import create_app
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit, surveys_url
from tests.integration.test_insights_service import FakeService, service

__all__ = ["service"]

EXCEL = ["export to excel please", "please export to excel", "excel export please", "export excel please"]
DARK = ["dark mode at night", "night dark mode", "a dark mode for night", "dark mode night please"]


@pytest.fixture
async def client(
    database_url: str, service: tuple[FakeService, str]
) -> AsyncIterator[AsyncTestClient[Litestar]]:
    settings = Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        embeddings=service[1],
        embeddings_model="fake-embedder",
    )
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def themes_of(
    client: AsyncTestClient[Litestar], tenant: Tenant, survey_id: str, query: str = ""
) -> Any:
    deadline = time.monotonic() + 60
    while True:
        body = (
            await client.get(surveys_url(tenant, f"/{survey_id}/results{query}"), headers=tenant.headers)
        ).json()
        why = {q["id"]: q for q in body["questions"]}["why"]
        if sum(theme["answers"] for theme in why["themes"]) >= 8 or "language=de" in query:
            return why["themes"]
        assert time.monotonic() < deadline, why
        await asyncio.sleep(0.2)


async def test_open_text_answers_are_grouped_into_themes(
    client: AsyncTestClient[Litestar], tenant: Tenant, service: tuple[FakeService, str]
) -> None:
    survey = await create_survey(client, tenant, every_type())
    for at, text in enumerate(EXCEL + DARK):
        stored = await submit(
            client,
            tenant,
            survey["id"],
            [{"question_id": "why", "value": text}],
            language="de" if at % 2 else "en",
        )
        assert stored.status_code == 200, stored.text
    themes = await themes_of(client, tenant, survey["id"])
    groups = sorted((theme["label"] in EXCEL, theme["answers"]) for theme in themes)
    assert groups == [(False, 4), (True, 4)]
    assert all(theme["keywords"] for theme in themes)
    fake, _ = service
    assert sorted(text for request in fake.requests for text in request["input"]) == sorted(EXCEL + DARK)
    german = await themes_of(client, tenant, survey["id"], "?language=de")
    assert sum(theme["answers"] for theme in german) <= 4
