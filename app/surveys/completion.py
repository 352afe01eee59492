"""Completes the active surveys whose time is up (ends_at passed) or that have their max_responses
completed responses (a submit completes a survey that reaches it at once; this catches a limit lowered
below the count). Every process looks every COMPLETION_EVERY_SECONDS; the survey rows are locked, so two
processes completing the same survey change it once. A completed survey leaves the public list at once:
the change moves the cache generation."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Survey, SurveyStatus
from app.db.row_locks import lock_rows
from app.db.transactions import unit_of_work
from app.surveys.service import response_counts
from app.timestamps import utc_now

COMPLETION_EVERY_SECONDS = 30
"""Half a minute: an ended or full survey is completed within a minute."""
ACTIVE = SurveyStatus.ACTIVE.value


async def complete_due_surveys(session_maker: async_sessionmaker[AsyncSession]) -> int:
    """The number of surveys completed."""
    async with unit_of_work(session_maker) as session:
        limited = [
            Survey.status == ACTIVE,
            or_(Survey.ends_at <= utc_now(), Survey.max_responses.is_not(None)),
        ]
        candidates = list(await session.scalars(select(Survey.id).where(*limited)))
        if not candidates:
            return 0
        surveys = await lock_rows(session, Survey, [Survey.id.in_(candidates), *limited], [Survey.id])
        return await _complete(session, surveys)


async def _complete(session: AsyncSession, surveys: list[Survey]) -> int:
    completed = await response_counts(
        session, [s.id for s in surveys if s.max_responses is not None], "completed"
    )
    now, done = utc_now(), 0
    for survey in surveys:
        ended = survey.ends_at is not None and survey.ends_at <= now
        full = survey.max_responses is not None and completed[survey.id] >= survey.max_responses
        if ended or full:
            survey.status = SurveyStatus.COMPLETED.value
            done += 1
    await session.flush()
    return done
