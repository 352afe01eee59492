"""Themes of a question's open-text answers, through the insights engine (docs/insights.md).

An open-text answer gets a `survey_answer_vectors` row and an outbox job (kind "survey_embed") in the
transaction that stores it (an amendment that changes the text empties the vector and queues it again);
the dispatcher's `AnswerEmbedSender` embeds the texts off the event loop with the engine's embedder, paced
like feedback's vectors, and writes them. A result clusters the latest MAX_ANSWERS vectors of the question
within its filters the way feedback themes are clustered (docs/insights.md): each language's mean
subtracted, average-link clustering cut at the best silhouette (from 30 answers on, of their
neighbourhoods), groups of two or more (three from 30 answers), labelled by their most central answer and
named by their own words.
The work is bounded by MAX_ANSWERS, whatever the number of responses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import date
from typing import Any
from uuid import UUID

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import SurveyAnswerVector, SurveyResponse
from app.db.transactions import unit_of_work
from app.insights.clustering import cluster
from app.insights.engine import insights_engine
from app.insights.vector_jobs import VectorSender, queue_vector_rows
from app.insights.vectors import comparable, to_bytes
from app.outbox import ClaimedJob, Outcome
from app.surveys.bodies import SurveyTheme

SURVEY_EMBED_JOB = "survey_embed"
MAX_ANSWERS = 500
"""The latest answers a question's themes are drawn from: a result's cost does not grow past it."""


async def queue_answer_vectors(
    session: AsyncSession, response: SurveyResponse, question_ids: Sequence[str]
) -> None:
    """Ask for the vectors of these open-text answers of `response` (new or changed), in the caller's
    transaction; with insights off nothing is queued."""
    if not question_ids or not insights_engine().enabled or response.spam:
        return
    await queue_vector_rows(
        session,
        SURVEY_EMBED_JOB,
        question_ids,
        select(SurveyAnswerVector).where(
            SurveyAnswerVector.response_id == response.id,
            SurveyAnswerVector.question_id.in_(question_ids),
        ),
        lambda row: row.question_id,
        lambda question_id, job_id: SurveyAnswerVector(
            response_id=response.id,
            question_id=question_id,
            survey_id=response.survey_id,
            day=response.day,
            language=response.language,
            job_id=job_id,
        ),
    )


class AnswerEmbedSender(VectorSender):
    """The outbox handler of kind "survey_embed": each job's answers embedded in one batch."""

    kind = SURVEY_EMBED_JOB
    share = 2

    async def embed_job(self, job: ClaimedJob) -> Outcome:
        async with self._session_maker() as session:
            rows = list(
                await session.execute(
                    select(
                        SurveyAnswerVector.response_id, SurveyAnswerVector.question_id, SurveyResponse.answers
                    )
                    .join(SurveyResponse, SurveyResponse.id == SurveyAnswerVector.response_id)
                    .where(SurveyAnswerVector.job_id == job.id)
                    .order_by(SurveyAnswerVector.response_id, SurveyAnswerVector.question_id)
                )
            )
        texts = [_text(answers, question_id) for _, question_id, answers in rows]
        found = [(row[0], row[1], text) for row, text in zip(rows, texts, strict=True) if text]
        if not found:  # deleted, changed again (a newer job has them), or no longer text
            return Outcome(ok=True)
        vectors, languages = await self.embed([text for _, _, text in found])
        async with unit_of_work(self._session_maker) as session:
            for (response_id, question_id, _), vector, language in zip(
                found, vectors, languages, strict=True
            ):
                await session.execute(
                    update(SurveyAnswerVector)
                    .where(
                        SurveyAnswerVector.response_id == response_id,
                        SurveyAnswerVector.question_id == question_id,
                        SurveyAnswerVector.job_id == job.id,
                    )
                    .values(vector=to_bytes(vector), model=self.model, text_language=language)
                    .execution_options(synchronize_session=False)
                )
        return Outcome(ok=True)


def _text(answers: list[dict[str, Any]], question_id: str) -> str | None:
    for answer in answers:
        if answer["question_id"] == question_id and isinstance(answer["value"], str):
            return str(answer["value"])
    return None


async def answer_themes(
    session: AsyncSession,
    survey_id: UUID,
    question_id: str,
    *,
    first_day: date | None,
    after_last_day: date | None,
    language: str | None,
) -> list[SurveyTheme]:
    """The themes of the question's latest MAX_ANSWERS embedded answers within the filters; none while
    insights are off."""
    engine = insights_engine()
    if not engine.enabled:
        return []
    where = [
        SurveyAnswerVector.survey_id == survey_id,
        SurveyAnswerVector.question_id == question_id,
        SurveyAnswerVector.vector.is_not(None),
        SurveyAnswerVector.model == engine.embedder.name,
    ]
    if first_day is not None:
        where.append(SurveyAnswerVector.day >= first_day)
    if after_last_day is not None:
        where.append(SurveyAnswerVector.day < after_last_day)
    if language is not None:
        where.append(SurveyAnswerVector.language == language)
    rows = list(
        await session.execute(
            select(SurveyAnswerVector.vector, SurveyAnswerVector.text_language, SurveyResponse.answers)
            .join(SurveyResponse, SurveyResponse.id == SurveyAnswerVector.response_id)
            .where(*where)
            .order_by(SurveyAnswerVector.day.desc(), SurveyAnswerVector.response_id.desc())
            .limit(MAX_ANSWERS)
        )
    )
    texts = [_text(answers, question_id) or "" for _, _, answers in rows]
    languages = [row[1] for row in rows]
    model = engine.embedder.name

    def compute() -> list[SurveyTheme]:
        if not rows:
            return []
        vectors, _ = comparable([row[0] for row in rows], languages, model)
        clusters = cluster(vectors, texts, languages)
        return [
            SurveyTheme(
                label=c.label,
                keywords=c.keywords,
                answers=len(c.members),
                name=c.name,
                confidence=c.confidence,
            )
            for c in clusters
        ]

    return await asyncio.to_thread(compute)
