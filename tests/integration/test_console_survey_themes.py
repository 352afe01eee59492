"""The open-text themes of a survey's results in the console: answers that say the same thing, in any
language, grouped by the insights engine (here over a local fake of an embeddings service)."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from app.config import Settings
from app.db.models import User
from tests.console_helpers import Console
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit
from tests.integration.surveys.test_answer_themes import DARK, EXCEL
from tests.integration.test_insights_service import FakeService, service

__all__ = ["service"]


@pytest.fixture
def settings(database_url: str, service: tuple[FakeService, str]) -> Settings:
    return Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        embeddings=service[1],
        embeddings_model="fake-embedder",
        periodic_jobs=False,
    )


async def test_open_text_themes_beside_the_latest_answers(
    console: Console, owner: User, tenant: Tenant
) -> None:
    survey = await create_survey(console.client, tenant, every_type())
    for at, text in enumerate([*EXCEL, *DARK, "<i>export</i> to excel please"]):
        language = "de" if at % 2 else "en"
        sent = await submit(
            console.client, tenant, survey["id"], [{"question_id": "why", "value": text}], language=language
        )
        assert sent.status_code == 200, sent.text
    await console.login(owner.email)
    url = f"/projects/{tenant.project_id}/surveys/{survey['id']}/results"
    deadline = time.monotonic() + 60
    while True:
        page = (await console.get(url)).text
        counts = [
            int(n) for n in re.findall(r'<td class="num">(\d+)</td></tr>', page.split('class="themes"')[-1])
        ]
        if 'class="themes"' in page and sum(counts) >= 9:
            break
        assert time.monotonic() < deadline, page
        await asyncio.sleep(0.2)
    assert "Themes: answers that say the same thing" in page
    assert sorted(counts) == [4, 5]
    assert "<i>export</i>" not in page and "&lt;i&gt;export&lt;/i&gt; to excel please" in page
