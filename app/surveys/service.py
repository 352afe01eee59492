"""The surveys of one project: create (as given or from a template), list, read, change, delete.

Every field of a change is checked before any is applied, so a refused change leaves the survey as it
was. A survey that is or becomes active passes the activation checks (app/surveys/definition.py).
A change to a survey moves the cache generation, so every worker serves the new active list at once.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from sqlalchemy import func, select

from app.db.models import SURVEY_TOTALS, Survey, SurveyCounter, SurveyStatus
from app.db.paging import one_page
from app.errors import InvalidRequest, NotFound
from app.services.projects import ProjectScoped
from app.surveys.bodies import SurveyCreateBody, SurveyPatchBody
from app.surveys.definition import (
    Audience,
    Question,
    Trigger,
    check_activatable,
    check_saved,
    questions_of,
    stored,
)
from app.surveys.templates import TEMPLATE_LANGUAGES, TEMPLATES
from tenants.permissions import require
from tenants.scope import Access

ACTIVE = SurveyStatus.ACTIVE.value
_FROM_TEMPLATE = ("languages", "questions")
"""What a template sets and a body with a template may not."""


class Surveys(ProjectScoped):
    async def create(self, data: SurveyCreateBody) -> Survey:
        """A new survey; from a template it is a draft with the template's questions in en, de and sv."""
        require(self.scope, Access.WRITE)
        if data.template is not None:
            for field in _FROM_TEMPLATE:
                if getattr(data, field) is not None:
                    raise InvalidRequest(field, "comes from the template: leave it out, change it after")
            if data.status != SurveyStatus.DRAFT.value:
                raise InvalidRequest("status", "a survey from a template starts as a draft")
            template = TEMPLATES[data.template]
            name = data.name or template.name
            languages, questions = list(TEMPLATE_LANGUAGES), list(template.questions)
            trigger = data.trigger or template.trigger
        elif data.name is None:
            raise InvalidRequest("name", "required (or give a template)")
        else:
            name, languages = data.name, data.languages or ["en"]
            questions, trigger = data.questions or [], data.trigger or Trigger()
        audience = data.audience or Audience()
        _check(data.status, languages, questions, trigger, audience)
        survey = Survey(
            project_id=self.project.id,
            name=name,
            status=data.status,
            languages=languages,
            questions=stored(questions),
            display=data.display,
            trigger=stored(trigger),
            audience=stored(audience),
            cooldown_days=data.cooldown_days,
            ends_at=data.ends_at,
            max_responses=data.max_responses,
        )
        self.session.add(survey)
        await self.session.flush()
        return survey

    async def list(
        self, *, status: str | None = None, page: int = 1, limit: int = 20
    ) -> tuple[list[Survey], int]:
        """One page, newest first, and the total count."""
        where = [Survey.project_id == self.project.id]
        if status is not None:
            where.append(Survey.status == status)
        total = await self.session.scalar(select(func.count()).select_from(Survey).where(*where))
        rows = await self.session.scalars(one_page(select(Survey).where(*where), Survey, page, limit))
        return list(rows), total or 0

    async def get(self, survey_id: UUID) -> Survey:
        """A survey of this project; another project's survey is not found."""
        survey = await self.session.scalar(
            select(Survey).where(Survey.id == survey_id, Survey.project_id == self.project.id)
        )
        if survey is None:
            raise NotFound("no survey with this id in this project")
        return survey

    async def update(self, survey: Survey, data: SurveyPatchBody) -> Survey:
        require(self.scope, Access.WRITE)
        changes = {
            field: value
            for field in data.__struct_fields__
            if (value := getattr(data, field)) is not msgspec.UNSET
        }
        status = changes.get("status", survey.status)
        if status == SurveyStatus.DRAFT.value and survey.status != status:
            raise InvalidRequest("status", "a survey that has been active cannot become a draft again")
        languages = changes.get("languages", survey.languages)
        questions: list[Question] = changes.get("questions", questions_of(survey.questions))
        trigger = changes.get("trigger", msgspec.convert(survey.trigger, Trigger))
        audience = changes.get("audience", msgspec.convert(survey.audience, Audience))
        _check(status, languages, questions, trigger, audience)
        for field, value in changes.items():
            setattr(survey, field, stored(value) if field in ("questions", "trigger", "audience") else value)
        await self.session.flush()
        return survey

    async def set_status(self, survey: Survey, status: str) -> Survey:
        return await self.update(survey, SurveyPatchBody(status=status))

    async def delete(self, survey: Survey) -> None:
        """The survey with its responses, counters and links (foreign keys cascade)."""
        require(self.scope, Access.WRITE)
        await self.session.delete(survey)
        await self.session.flush()

    async def response_counts(self, surveys: list[Survey]) -> dict[UUID, int]:
        """Responses stored per survey (partial ones too), from the counters."""
        return await response_counts(self.session, [survey.id for survey in surveys])


async def response_counts(session: Any, survey_ids: list[UUID], value: str = "responses") -> dict[UUID, int]:
    """Per survey, its responses ("responses") or completed responses ("completed"), from the counters."""
    if not survey_ids:
        return {}
    rows = await session.execute(
        select(SurveyCounter.survey_id, func.sum(SurveyCounter.count))
        .where(
            SurveyCounter.survey_id.in_(survey_ids),
            SurveyCounter.question_id == SURVEY_TOTALS,
            SurveyCounter.value == value,
        )
        .group_by(SurveyCounter.survey_id)
    )
    counts = {survey_id: int(count) for survey_id, count in rows.tuples()}
    return {survey_id: counts.get(survey_id, 0) for survey_id in survey_ids}


def _check(
    status: str, languages: list[str], questions: list[Question], trigger: Trigger, audience: Audience
) -> None:
    check_saved(languages, questions, trigger, audience)
    if status == ACTIVE:
        check_activatable(languages, questions)
