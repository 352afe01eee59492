"""A survey's results, summed from its counters: the work grows with the days and values counted, never
with the number of responses. Every language counts in one result unless `language` narrows it.
Open-text questions carry the themes of their answers (app/surveys/answer_themes.py), drawn from a
bounded number of the latest answers.

Bounds are whole UTC days of the day each response was first stored: since counts from the day it falls
on, until up to the end of the day it falls in (a date: through that day; midnight: before it).
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time, timedelta
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ANSWERED, SURVEY_TOTALS, Survey, SurveyCounter
from app.services.time_bounds import parse_bounds
from app.surveys.answer_themes import answer_themes
from app.surveys.bodies import NpsOut, QuestionResult, SurveyResults
from app.surveys.definition import Question, questions_of


async def survey_results(
    session: AsyncSession,
    survey: Survey,
    *,
    since: str | None = None,
    until: str | None = None,
    language: str | None = None,
) -> SurveyResults:
    start, end = parse_bounds(since, until)
    first_day = None if start is None else start.date()
    after_last_day = None if end is None else _day_after_last(end)
    counts = await _counts(session, survey.id, first_day, after_last_day, language)
    questions = [_result(question, counts) for question in questions_of(survey.questions)]
    for question in questions:
        if question.type == "open_text":
            question.themes = await answer_themes(
                session,
                survey.id,
                question.id,
                first_day=first_day,
                after_last_day=after_last_day,
                language=language,
            )
    return SurveyResults(
        responses=counts[(SURVEY_TOTALS, "responses")],
        completed=counts[(SURVEY_TOTALS, "completed")],
        questions=questions,
    )


async def _counts(
    session: AsyncSession,
    survey_id: UUID,
    first_day: date | None,
    after_last_day: date | None,
    language: str | None,
) -> Counter[tuple[str, str]]:
    where = [SurveyCounter.survey_id == survey_id]
    if first_day is not None:
        where.append(SurveyCounter.day >= first_day)
    if after_last_day is not None:
        where.append(SurveyCounter.day < after_last_day)
    if language is not None:
        where.append(SurveyCounter.language == language)
    rows = await session.execute(
        select(SurveyCounter.question_id, SurveyCounter.value, func.sum(SurveyCounter.count))
        .where(*where)
        .group_by(SurveyCounter.question_id, SurveyCounter.value)
    )
    counts: Counter[tuple[str, str]] = Counter()
    for question_id, value, count in rows.tuples():
        counts[(question_id, value)] = int(count)
    return counts


def _day_after_last(end: datetime) -> date:
    """The first day not counted for an exclusive `until` (UTC)."""
    return end.date() if end.time() == time.min else end.date() + timedelta(days=1)


def _result(question: Question, counts: Counter[tuple[str, str]]) -> QuestionResult:
    answered = counts[(question.id, ANSWERED)]
    result = QuestionResult(id=question.id, type=question.type, answers=answered)
    values = {value: n for (question_id, value), n in counts.items() if question_id == question.id and value}
    if question.type in ("rating", "nps"):
        low, high = (0, 10) if question.type == "nps" else (1, question.scale or 5)
        distribution = {str(v): values.get(str(v), 0) for v in range(low, high + 1)}
        result.distribution = distribution
        total = sum(distribution.values())
        if question.type == "rating":
            result.mean = (
                round(sum(int(v) * n for v, n in distribution.items()) / total, 2) if total else None
            )
        else:
            result.nps = _nps(distribution, total)
    elif question.type == "boolean":
        result.choices = {"true": values.get("true", 0), "false": values.get("false", 0)}
    elif question.type in ("single_choice", "multiple_choice"):
        choices = {choice.id: values.get(choice.id, 0) for choice in question.choices or []}
        result.choices = {**choices, **{v: n for v, n in values.items() if v not in choices and n}}
    return result


def _nps(distribution: dict[str, int], total: int) -> NpsOut:
    promoters = sum(distribution[str(v)] for v in (9, 10))
    passives = sum(distribution[str(v)] for v in (7, 8))
    detractors = total - promoters - passives
    score = round(100 * (promoters - detractors) / total) if total else None
    return NpsOut(score=score, promoters=promoters, passives=passives, detractors=detractors)
