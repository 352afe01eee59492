"""The widget's responses stored in batches (group commit): many submits at once to one survey share
transactions, and each is answered as if it had been alone: stored and counted, refused naming its
field, refused once the survey reached max_responses, or 503 alone when its row cannot be stored."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import httpx
import pytest
from litestar import Litestar
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import RateLimit, Settings
from app.db.models import Survey, SurveyResponse
from app.errors import Unavailable
from app.surveys import intake as intake_module
from app.surveys.intake import SurveyIntake
from app.surveys.response_writer import ResponseToStore, Submission, UnlockedBatch, store_responses
from app.surveys.unlocked_batches import PostgresUnlockedBatches, SqliteUnlockedBatches
from tests.counter_recount import assert_survey_counters_match_rows
from tests.factories import Tenant
from tests.integration.surveys.conftest import create_survey, every_type, submit, surveys_url

AT_ONCE = 50
BASE = "http://testserver.local"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """One test client sends every submit: its per-client budget must not be what refuses them."""
    return replace(settings, rate_limit_client=RateLimit(1_000_000, 60))


@asynccontextmanager
async def serving(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose requests run at once on the test's own event loop, beside the application's
    intake (the suite's test client answers one request at a time, from a thread of its own). Entered
    in the test itself: the lifespan must end in the task it started in."""
    transport = httpx.ASGITransport(app=app)
    async with app.lifespan(), httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        yield client


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each batch the intake stores."""
    sizes: list[int] = []

    async def counted(session: AsyncSession, items: Sequence[ResponseToStore]) -> Any:
        sizes.append(len(items))
        return await store_responses(session, items)

    monkeypatch.setattr(intake_module, "store_responses", counted)
    return sizes


async def stored_rows(
    session_maker: async_sessionmaker[AsyncSession], survey_id: str
) -> list[SurveyResponse]:
    async with session_maker() as session:
        rows = await session.scalars(select(SurveyResponse).where(SurveyResponse.survey_id == survey_id))
        return list(rows)


async def test_responses_sent_at_once_share_transactions_and_are_all_counted(
    app: Litestar,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    batches: list[int],
) -> None:
    async with serving(app) as client:
        survey = await create_survey(client, tenant, every_type())
        sent = await asyncio.gather(
            *(
                submit(
                    client,
                    tenant,
                    survey["id"],
                    [
                        {"question_id": "score", "value": n % 11},
                        {"question_id": "uses", "value": ["docs", "api"]},
                    ],
                    language="de" if n % 3 else "en",
                )
                for n in range(AT_ONCE)
            ),
            submit(client, tenant, survey["id"], [{"question_id": "score", "value": 11}]),
            submit(client, tenant, survey["id"], [{"question_id": "nope", "value": 1}]),
        )
        *accepted, too_high, unknown = sent
        assert [r.status_code for r in accepted] == [200] * AT_ONCE
        assert (too_high.status_code, too_high.json()["details"]) == (
            400,
            "answers[0].value: question 'score' takes a whole number from 0 to 10",
        )
        assert unknown.status_code == 400
        assert unknown.json()["details"].startswith("answers[0].question_id")
        assert len(batches) < AT_ONCE, "the submits were stored one transaction each"
        # Each one amended at once too: completed with one more answer.
        amended = await asyncio.gather(
            *(
                submit(
                    client,
                    tenant,
                    survey["id"],
                    [{"question_id": "again", "value": n % 2 == 0}],
                    response_id=r.json()["response_id"],
                    completed=True,
                    language="de" if n % 3 else "en",
                )
                for n, r in enumerate(accepted)
            )
        )
        assert [r.json()["response_id"] for r in amended] == [r.json()["response_id"] for r in accepted]
        rows = await stored_rows(session_maker, survey["id"])
        assert len(rows) == AT_ONCE and all(row.completed and len(row.answers) == 3 for row in rows)
        async with session_maker() as session:
            await assert_survey_counters_match_rows(session)
        results = await client.get(surveys_url(tenant, f"/{survey['id']}/results"), headers=tenant.headers)
        assert results.status_code == 200, results.text
        body = results.json()
        assert (body["responses"], body["completed"]) == (AT_ONCE, AT_ONCE)
        score = next(q for q in body["questions"] if q["id"] == "score")
        expected = Counter(str(n % 11) for n in range(AT_ONCE))
        assert {value: n for value, n in score["distribution"].items() if n} == expected


async def test_max_responses_holds_for_submits_sent_at_once(
    app: Litestar,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    batches: list[int],
) -> None:
    async with serving(app) as client:
        survey = await create_survey(client, tenant, every_type(max_responses=5))
        sent = await asyncio.gather(
            *(
                submit(client, tenant, survey["id"], [{"question_id": "score", "value": 7}], completed=True)
                for _ in range(30)
            )
        )
        assert sorted(r.status_code for r in sent) == [200] * 5 + [400] * 25
        refused = {r.json()["details"] for r in sent if r.status_code == 400}
        assert refused == {"survey_id: this survey is completed: it takes no responses"}
        assert max(batches) > 1, "the submits were never batched"
        rows = await stored_rows(session_maker, survey["id"])
        assert len(rows) == 5 and all(row.completed for row in rows)
        async with session_maker() as session:
            fresh = await session.get(Survey, survey["id"])
            assert fresh is not None and fresh.status == "completed"
            await assert_survey_counters_match_rows(session)
        listed = await client.get(f"/api/v1/surveys/active?project_key={tenant.project_key}")
        assert listed.json() == {"surveys": []}


async def test_new_responses_to_a_known_survey_are_stored_without_locks_by_the_same_rules(
    app: Litestar,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    batches: list[int],
) -> None:
    """Once a worker has read a survey, its new responses are checked against that copy and written in
    one hop: every refusal still names its field, and the counters hold exactly what was stored."""
    async with serving(app) as client:
        survey = await create_survey(client, tenant, every_type())
        first = await submit(client, tenant, survey["id"], [{"question_id": "score", "value": 1}])
        assert first.status_code == 200
        sent = await asyncio.gather(
            *(
                submit(
                    client,
                    tenant,
                    survey["id"],
                    [{"question_id": "score", "value": n % 11}, {"question_id": "plan", "value": "pro"}],
                    completed=n % 2 == 0,
                    language="de" if n % 3 else "en",
                )
                for n in range(AT_ONCE)
            ),
            submit(client, tenant, survey["id"], [{"question_id": "plan", "value": "gold"}]),
            submit(client, tenant, survey["id"], [{"question_id": "score", "value": 1}], language="sv"),
            submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 4}], completed=True),
        )
        *accepted, choice, swedish, incomplete = sent
        assert [r.status_code for r in accepted] == [200] * AT_ONCE
        assert choice.json()["details"] == (
            "answers[0].value: question 'plan' takes one of its choice ids: ['free', 'pro']"
        )
        assert swedish.json()["details"].startswith("language:")
        assert (
            incomplete.json()["details"]
            == "answers: question 'score' is required before the response completes"
        )
        assert batches == [1], "the known survey's submits took the locking path"
        rows = await stored_rows(session_maker, survey["id"])
        assert len(rows) == AT_ONCE + 1
        async with session_maker() as session:
            await assert_survey_counters_match_rows(session)


async def test_a_change_to_a_survey_reaches_the_next_submit(
    app: Litestar, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """A worker's copy of a survey is checked by the write itself: an edit or a pause made after the
    worker read the survey decides the next submit."""
    async with serving(app) as client:
        survey = await create_survey(client, tenant, every_type())
        url = surveys_url(tenant, f"/{survey['id']}")
        first = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 4}])
        assert first.status_code == 200
        ease = {"id": "ease", "type": "rating", "scale": 10, "text": {"en": "Easy?", "de": "Leicht?"}}
        edit = {"questions": [*every_type()["questions"][:1], ease]}
        changed = await client.patch(url, json=edit, headers=tenant.headers)
        assert changed.status_code == 200, changed.text
        gone = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 4}])
        assert gone.json()["details"] == "answers[0].question_id: no question 'stars' in this survey"
        new = await submit(client, tenant, survey["id"], [{"question_id": "ease", "value": 9}])
        assert new.status_code == 200
        assert (await client.patch(url, json={"status": "paused"}, headers=tenant.headers)).status_code == 200
        paused = await submit(client, tenant, survey["id"], [{"question_id": "ease", "value": 6}])
        assert paused.json()["details"] == "survey_id: this survey is paused: it takes no responses"
        assert len(await stored_rows(session_maker, survey["id"])) == 2
        async with session_maker() as session:
            await assert_survey_counters_match_rows(session)


@pytest.mark.parametrize("known", [False, True], ids=["locking", "unlocked"])
async def test_a_response_that_cannot_be_stored_fails_alone(
    app: Litestar,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
    known: bool,
) -> None:
    """A batch the database refuses is written again response by response: the others are stored and
    acknowledged, the bad one alone is answered 503, and the counters hold only what was stored. So on
    either path: the locking one, and the one a survey the worker knows takes."""

    async def refusing(session: AsyncSession, items: Sequence[ResponseToStore]) -> Any:
        results = await store_responses(session, items)
        if any(item.submission.path == "/refused" for item in items):
            raise RuntimeError("the database refused a row of this batch")
        return results

    def refusing_unlocked(write: Any) -> Any:
        async def written(self: Any, batch: UnlockedBatch) -> bool:
            if any(response.path == "/refused" for response in batch.new):
                raise RuntimeError("the database refused a row of this batch")
            return bool(await write(self, batch))

        return written

    monkeypatch.setattr(intake_module, "store_responses", refusing)
    for writer in (SqliteUnlockedBatches, PostgresUnlockedBatches):
        monkeypatch.setattr(writer, "write", refusing_unlocked(writer.write))
    async with serving(app) as client:
        survey = await create_survey(client, tenant, every_type())
        if known:
            first = await submit(client, tenant, survey["id"], [{"question_id": "stars", "value": 1}])
            assert first.status_code == 200
        sent = await asyncio.gather(
            *(
                submit(
                    client,
                    tenant,
                    survey["id"],
                    [{"question_id": "stars", "value": 4}],
                    path="/refused" if n == 7 else "/fine",
                )
                for n in range(20)
            )
        )
        assert [r.status_code for r in sent] == [503 if n == 7 else 200 for n in range(20)]
        rows = await stored_rows(session_maker, survey["id"])
        assert sorted(str(row.id) for row in rows if row.path == "/fine") == sorted(
            r.json()["response_id"] for n, r in enumerate(sent) if n != 7
        )
        async with session_maker() as session:
            assert await session.scalar(select(func.count()).select_from(SurveyResponse)) == 19 + known
            await assert_survey_counters_match_rows(session)


async def test_a_batch_the_database_does_not_answer_is_503_at_its_deadline(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The submit path has no per-request deadline (a task per request would cost it): its batches have
    one, so a frozen database answers the waiting visitors 503 instead of hanging them."""

    async def frozen(session: AsyncSession, items: Sequence[ResponseToStore]) -> Any:
        await asyncio.Event().wait()

    monkeypatch.setattr(intake_module, "store_responses", frozen)
    monkeypatch.setattr(intake_module, "WRITE_DEADLINE_SECONDS", 0.05)
    intake = SurveyIntake(session_maker)
    project = tenant.project
    item = ResponseToStore(project.id, project.org_id, uuid7(), Submission(answers=[], language="en"))
    outcomes = await intake.write([item] * 3)
    await intake.close()
    assert [type(outcome) for outcome in outcomes] == [Unavailable] * 3
