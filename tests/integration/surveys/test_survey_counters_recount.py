"""Property check: after random responses, amendments (same response id), refused calls, spam and
erasures, some of them at once, alone in a transaction (the hosted page's way) or batched by the survey
intake (the widget's way), the survey counters equal a recount from the response rows, and every
result (any days, any language) equals a plain recount of the rows it covers. Seeded, so a failure
replays exactly."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Survey, SurveyResponse
from app.db.transactions import unit_of_work
from app.errors import InvalidRequest
from app.ingest import Coalescer
from app.surveys import response_writer
from app.surveys.bodies import AnswerIn, SurveyCreateBody
from app.surveys.forgetting import forget_responses
from app.surveys.intake import SurveyIntake
from app.surveys.response_writer import ResponseToStore, Stored
from app.surveys.responses import Submission, SurveyResponses
from app.surveys.results import survey_results
from app.surveys.service import Surveys
from app.surveys.unlocked_batches import unlocked_batches
from tenants.scope import operator_scope, widget_scope
from tests.counter_recount import assert_survey_counters_match_rows
from tests.factories import Tenant
from tests.integration.surveys.conftest import every_type

FIRST_DAY = datetime(2026, 6, 1, 12, tzinfo=UTC)
DAYS = 5


def random_value(rng: random.Random, question_id: str) -> Any:
    if rng.random() < 0.05:
        return "not an answer" if question_id != "why" else 42  # refused: the call stores nothing
    return {
        "score": lambda: rng.randint(0, 10),
        "stars": lambda: rng.randint(1, 5),
        "plan": lambda: rng.choice(["free", "pro"]),
        "uses": lambda: rng.sample(["docs", "api", "ui"], rng.randint(1, 3)),
        "again": lambda: rng.random() < 0.5,
        "why": lambda: rng.choice(["Fast", "Slow", "Schnell"]),
    }[question_id]()


def random_answers(rng: random.Random) -> list[AnswerIn]:
    chosen = rng.sample(["score", "stars", "plan", "uses", "again", "why"], rng.randint(1, 4))
    return [AnswerIn(question_id=q, value=random_value(rng, q)) for q in chosen]


Batched = Coalescer[ResponseToStore, Stored]
"""Submits batched as the widget's are (the intake's writer under a Coalescer, as the gate runs it)."""


async def write(
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    survey_id: UUID,
    submission: Submission,
    intake: Batched | None = None,
) -> UUID | None:
    """The stored response's id, or None when it was refused; through `intake` when given."""
    try:
        if intake is not None:
            project = tenant.project
            item = ResponseToStore(project.id, project.org_id, survey_id, submission)
            return (await intake.submit(item)).id
        async with unit_of_work(session_maker) as session:
            service = SurveyResponses(session, widget_scope(tenant.project.org_id), tenant.project)
            stored = await service.submit(survey_id, submission)
            await session.commit()
            return stored.id
    except InvalidRequest:
        return None


async def erase(session_maker: async_sessionmaker[AsyncSession], response_id: UUID) -> None:
    async with unit_of_work(session_maker) as session:
        await forget_responses(session, [SurveyResponse.id == response_id])
        await session.commit()


def recount(
    rows: list[SurveyResponse], since: date | None, until: date | None, language: str | None
) -> dict[str, Any]:
    """The results' numbers counted from the rows themselves."""
    kept = [
        r
        for r in rows
        if (since is None or r.day >= since)
        and (until is None or r.day <= until)
        and language in (None, r.language)
    ]
    values: dict[str, Counter[str]] = {}
    answered: Counter[str] = Counter()
    for row in kept:
        for answer in row.answers:
            answered[answer["question_id"]] += 1
            if answer["type"] == "open_text":
                continue
            value = answer["value"]
            for v in value if isinstance(value, list) else [value]:
                values.setdefault(answer["question_id"], Counter())[
                    ("true" if v else "false") if isinstance(v, bool) else str(v)
                ] += 1
    return {
        "responses": len(kept),
        "completed": sum(r.completed for r in kept),
        "answered": answered,
        "values": values,
    }


@pytest.mark.parametrize("seed", [1, 2])
async def test_counters_and_results_match_a_recount_after_random_writes(
    tenant: Tenant,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
) -> None:
    rng = random.Random(seed)
    async with unit_of_work(session_maker) as session:
        survey = await Surveys(
            session, operator_scope(tenant.project.org_id, "tests"), tenant.project
        ).create(msgspec.convert(every_type(), SurveyCreateBody))
        await session.commit()
    ids: list[UUID] = []
    writer = SurveyIntake(session_maker, unlocked_batches(settings))
    intake: Batched = Coalescer(writer.write, name="test-survey-intake")
    for _round in range(12):
        moment = FIRST_DAY + timedelta(days=rng.randrange(DAYS))
        monkeypatch.setattr(response_writer, "utc_now", lambda moment=moment: moment)
        calls = []
        for _ in range(rng.randint(1, 4)):
            amend = rng.choice(ids) if ids and rng.random() < 0.4 else None
            if ids and rng.random() < 0.1:
                calls.append(erase(session_maker, ids.pop(rng.randrange(len(ids)))))
                continue
            submission = Submission(
                answers=random_answers(rng),
                language=rng.choice(["en", "de"]),
                completed=rng.random() < 0.4,
                response_id=amend,
                spam=rng.random() < 0.1,
            )
            via = intake if rng.random() < 0.6 else None
            calls.append(write(session_maker, tenant, survey.id, submission, via))
        for stored in await asyncio.gather(*calls):
            if isinstance(stored, UUID) and stored not in ids:
                ids.append(stored)
    await intake.close()
    await writer.close()
    async with session_maker() as session:
        await assert_survey_counters_match_rows(session)
        rows = list(await session.scalars(select(SurveyResponse).where(SurveyResponse.spam.is_(False))))
        assert rows, "the random writes stored nothing"
        fresh = await session.get(Survey, survey.id)
        assert fresh is not None
        for _ in range(8):
            since = (FIRST_DAY + timedelta(days=rng.randrange(DAYS))).date() if rng.random() < 0.6 else None
            until = (FIRST_DAY + timedelta(days=rng.randrange(DAYS))).date() if rng.random() < 0.6 else None
            if since and until and until < since:
                since, until = until, since
            language = rng.choice([None, "en", "de"])
            expected = recount(rows, since, until, language)
            result = await survey_results(
                session,
                fresh,
                since=since.isoformat() if since else None,
                until=until.isoformat() if until else None,
                language=language,
            )
            assert (result.responses, result.completed) == (expected["responses"], expected["completed"])
            for question in result.questions:
                assert question.answers == expected["answered"][question.id]
                counted = question.distribution or question.choices or {}
                values = expected["values"].get(question.id, Counter())
                assert {v: n for v, n in counted.items() if n} == +values


@pytest.mark.parametrize("batched", [False, True], ids=["alone", "batched"])
async def test_max_responses_holds_under_concurrent_completions(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], batched: bool
) -> None:
    """Completing submits sent at once, each in its own transaction or batched by the intake: the survey
    row is locked while its completed responses are counted, so exactly max_responses are stored and the
    rest find the survey completed."""
    async with unit_of_work(session_maker) as session:
        survey = await Surveys(
            session, operator_scope(tenant.project.org_id, "tests"), tenant.project
        ).create(msgspec.convert(every_type(max_responses=3), SurveyCreateBody))
    answer = [AnswerIn(question_id="score", value=9)]
    intake: Batched | None = Coalescer(SurveyIntake(session_maker).write, name="test") if batched else None
    completing = Submission(answers=answer, language="en", completed=True)
    stored = await asyncio.gather(
        *(write(session_maker, tenant, survey.id, completing, intake) for _ in range(8))
    )
    if intake is not None:
        await intake.close()
    assert sum(1 for response_id in stored if response_id is not None) == 3
    async with session_maker() as session:
        fresh = await session.get(Survey, survey.id)
        assert fresh is not None and fresh.status == "completed"
        await assert_survey_counters_match_rows(session)
