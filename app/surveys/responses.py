"""Responses to one project's surveys: stored from the widget's and the hosted page's submits, amended
by later calls with the same response id, listed and filtered for the API and exports.

A submission is checked whole before anything is written: a refused call (a bad value, a survey no
longer active) leaves what was stored before untouched. Locks are taken in one order: the survey row
(shared, or exclusive when max_responses must be counted), then the response row, then the counters
in key order; erasure and retention take the response rows and then the counters.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from sqlalchemy import ColumnElement, func, select

from app.db.models import Survey, SurveyResponse, SurveyStatus
from app.db.paging import one_page
from app.db.row_locks import lock_rows
from app.errors import Forbidden, InvalidRequest, NotFound
from app.services.projects import ProjectScoped
from app.surveys.answer_themes import queue_answer_vectors
from app.surveys.answers import checked_answer, merged, missing_required
from app.surveys.bodies import AnswerIn, SurveyResponseOut
from app.surveys.counters import Counted, move_counts
from app.surveys.definition import questions_of
from app.surveys.service import response_counts
from app.timestamps import utc_now
from app.webhooks.events import record_events, survey_response_completed

ACTIVE = SurveyStatus.ACTIVE.value


class Submission(msgspec.Struct, kw_only=True):
    """One call's answers, from the widget or the hosted page."""

    answers: list[AnswerIn]
    language: str
    path: str | None = None
    completed: bool = False
    response_id: UUID | None = None
    submitted_by: str | None = None
    submitted_by_verified: bool = False
    spam: bool = False


class SurveyResponses(ProjectScoped):
    async def submit(self, survey_id: UUID, submission: Submission) -> SurveyResponse:
        """Store a new response, or add to the one `response_id` names; raises 400 naming the field."""
        survey = await self._survey_to_answer(survey_id)
        if survey.status != ACTIVE:
            raise InvalidRequest("survey_id", f"this survey is {survey.status}: it takes no responses")
        if survey.audience.get("verified_only") and not submission.submitted_by_verified:
            raise Forbidden("user_signature: this survey takes responses from verified users only")
        if submission.language not in survey.languages:
            raise InvalidRequest("language", f"is not one of the survey's languages {survey.languages}")
        questions = questions_of(survey.questions)
        by_id = {question.id: question for question in questions}
        given: list[dict[str, Any]] = []
        for at, answer in enumerate(submission.answers):
            field = f"answers[{at}]"
            if any(earlier["question_id"] == answer.question_id for earlier in given):
                raise InvalidRequest(f"{field}.question_id", f"{answer.question_id!r} is answered twice")
            given.append(
                checked_answer(field, by_id.get(answer.question_id), answer.question_id, answer.value)
            )
        response = await self._response_to_amend(survey, submission.response_id)
        before = [] if response is None else [Counted.of(response)]
        was_completed = response is not None and response.completed
        answers = merged(response.answers if response else [], given)
        completed = was_completed or submission.completed
        if completed and (missing := missing_required(questions, answers)) is not None:
            raise InvalidRequest(
                "answers", f"question {missing.id!r} is required before the response completes"
            )
        if response is None:
            now = utc_now()
            response = SurveyResponse(
                created_at=now,
                updated_at=now,
                survey_id=survey.id,
                project_id=self.project.id,
                answers=answers,
                language=submission.language,
                path=submission.path,
                completed=completed,
                day=now.date(),
                submitted_by=submission.submitted_by,
                submitted_by_verified=submission.submitted_by_verified,
                spam=submission.spam,
            )
            self.session.add(response)
        else:
            response.answers = answers
            response.completed = completed
            if response.submitted_by is None and submission.submitted_by is not None:
                response.submitted_by = submission.submitted_by
                response.submitted_by_verified = submission.submitted_by_verified
        await self.session.flush()
        await move_counts(self.session, before, [Counted.of(response)])
        earlier = {a["question_id"]: a["value"] for a in (before[0].answers if before else [])}
        texts = [
            a["question_id"]
            for a in given
            if a["type"] == "open_text" and earlier.get(a["question_id"]) != a["value"]
        ]
        await queue_answer_vectors(self.session, response, texts)
        if completed and not was_completed and not response.spam:
            await self._completed(survey, response)
        return response

    async def _completed(self, survey: Survey, response: SurveyResponse) -> None:
        """Announce it, and complete the survey when it reached max_responses completed responses."""
        body = msgspec.to_builtins(SurveyResponseOut.of(response))
        about = {**body, "project_id": str(self.project.id), "survey_name": survey.name}
        event = survey_response_completed(self.project.id, about)
        await record_events(self.session, self.project.org_id, [event])
        if survey.max_responses is not None:
            done = (await response_counts(self.session, [survey.id], "completed"))[survey.id]
            if done >= survey.max_responses:
                survey.status = SurveyStatus.COMPLETED.value
                await self.session.flush()

    async def _survey_to_answer(self, survey_id: UUID) -> Survey:
        """The survey, locked so that a deletion waits for this response: shared, or exclusive when its
        completed responses are counted against max_responses (one submit at a time then)."""
        where = [Survey.id == survey_id, Survey.project_id == self.project.id]
        found = await self.session.scalar(select(Survey).where(*where))
        if found is None:
            raise NotFound("survey_id: no survey with this id in this project")
        if found.max_responses is not None:
            (found,) = await lock_rows(self.session, Survey, where, [Survey.id]) or [None]
        elif self.session.get_bind().dialect.name != "sqlite":
            await self.session.execute(select(Survey.id).where(*where).with_for_update(key_share=True))
        if found is None:
            raise NotFound("survey_id: no survey with this id in this project")
        return found

    async def _response_to_amend(self, survey: Survey, response_id: UUID | None) -> SurveyResponse | None:
        if response_id is None:
            return None
        where = [SurveyResponse.id == response_id, SurveyResponse.survey_id == survey.id]
        rows = await lock_rows(self.session, SurveyResponse, where, [SurveyResponse.id])
        if not rows:
            raise InvalidRequest("response_id", "no response with this id to this survey")
        response: SurveyResponse = rows[0]
        return response

    def conditions(
        self, survey: Survey, *, completed: bool | None = None, language: str | None = None
    ) -> list[ColumnElement[bool]]:
        return response_conditions(survey, completed=completed, language=language)

    async def list(
        self,
        survey: Survey,
        *,
        completed: bool | None = None,
        language: str | None = None,
        page: int = 1,
        limit: int = 20,
    ) -> tuple[list[SurveyResponse], int]:
        """One page, newest first, and the total count."""
        where = self.conditions(survey, completed=completed, language=language)
        total = await self.session.scalar(select(func.count()).select_from(SurveyResponse).where(*where))
        rows = await self.session.scalars(
            one_page(select(SurveyResponse).where(*where), SurveyResponse, page, limit)
        )
        return list(rows), total or 0


def response_conditions(
    survey: Survey, *, completed: bool | None = None, language: str | None = None
) -> list[ColumnElement[bool]]:
    """A survey's responses, spam left out; `completed` and `language` filter them."""
    where = [
        SurveyResponse.survey_id == survey.id,
        SurveyResponse.project_id == survey.project_id,
        SurveyResponse.spam.is_(False),
    ]
    if completed is not None:
        where.append(SurveyResponse.completed.is_(completed))
    if language is not None:
        where.append(SurveyResponse.language == language)
    return where
