"""Every stored counter compared with a recount from the rows it counts: the check after any deletion
(purge, erasure, retention) that counts stayed exact."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import false, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    AttachmentUsage,
    FeedbackAttachment,
    FeedbackCounter,
    FeedbackItem,
    Rating,
    RatingCounter,
    RatingTotal,
    SurveyCounter,
    SurveyResponse,
)
from app.ingest.rating_counters import count_deltas, total_deltas


async def stored(session: AsyncSession, model: Any) -> Counter[tuple[Any, ...]]:
    keys = [column for column in model.__table__.primary_key.columns]
    rows = await session.execute(select(*keys, model.count).where(model.count != 0))
    return Counter({tuple(row[:-1]): row[-1] for row in rows})


async def assert_counters_match_rows(session: AsyncSession) -> None:
    feedback = Counter(
        {
            tuple(row[:-1]): row[-1]
            for row in await session.execute(
                select(
                    FeedbackItem.project_id,
                    FeedbackItem.archived,
                    FeedbackItem.status,
                    FeedbackItem.type,
                    FeedbackItem.source,
                    func.count(),
                )
                .where(FeedbackItem.spam == false())
                .group_by(
                    FeedbackItem.project_id,
                    FeedbackItem.archived,
                    FeedbackItem.status,
                    FeedbackItem.type,
                    FeedbackItem.source,
                )
            )
        }
    )
    assert await stored(session, FeedbackCounter) == feedback
    ratings = list(await session.scalars(select(Rating).where(Rating.archived == false())))
    days = +count_deltas(ratings, +1)
    assert await stored(session, RatingCounter) == days
    assert await stored(session, RatingTotal) == +total_deltas(days)
    await assert_attachment_usage_matches_rows(session)
    await assert_survey_counters_match_rows(session)


async def assert_attachment_usage_matches_rows(session: AsyncSession) -> None:
    """Each project's bytes of images, as the quota counts them, against the stored images."""
    usage = await session.execute(select(AttachmentUsage.project_id, AttachmentUsage.bytes))
    images = await session.execute(
        select(FeedbackAttachment.project_id, func.sum(FeedbackAttachment.bytes)).group_by(
            FeedbackAttachment.project_id
        )
    )
    assert {project: n for project, n in usage.tuples() if n} == {p: int(n) for p, n in images.tuples()}


async def assert_survey_counters_match_rows(session: AsyncSession) -> None:
    """Each survey's counts per day, language, question and value, recounted from the responses: the
    survey's responses and completed ones ("" question), each question's answers ("" value) and each
    value an answer holds (open text none, booleans as true/false, every choice of a multiple choice)."""
    expected: Counter[tuple[Any, ...]] = Counter()
    for response in await session.scalars(select(SurveyResponse).where(SurveyResponse.spam == false())):
        base = (response.survey_id, response.day, response.language)
        expected[(*base, "", "responses")] += 1
        expected[(*base, "", "completed")] += response.completed
        for answer in response.answers:
            expected[(*base, answer["question_id"], "")] += 1
            if answer["type"] == "open_text":
                continue
            values = answer["value"] if isinstance(answer["value"], list) else [answer["value"]]
            for value in values:
                text = ("true" if value else "false") if isinstance(value, bool) else str(value)
                expected[(*base, answer["question_id"], text)] += 1
    assert await stored(session, SurveyCounter) == +expected
