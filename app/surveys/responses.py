"""Responses to one project's surveys: stored from the hosted page's submits (the widget's go through
the survey intake, in batches), amended by later calls with the same response id, listed and filtered
for the API and exports. The rules of a submit are in response_writer.py, for both.
"""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import ColumnElement, func, select

from app.db.models import Survey, SurveyResponse
from app.db.paging import one_page
from app.errors import ApiError
from app.services.projects import ProjectScoped
from app.surveys.response_writer import ResponseToStore, Stored, Submission, store_responses

__all__ = ["Submission", "SurveyResponses", "response_conditions"]


class SurveyResponses(ProjectScoped):
    async def submit(self, survey_id: UUID, submission: Submission) -> Stored:
        """Store a new response, or add to the one `response_id` names, in the caller's transaction;
        raises 400 naming the field (or 403, 404) and then writes nothing."""
        item = ResponseToStore(self.project.id, self.project.org_id, survey_id, submission)
        (stored,) = await store_responses(self.session, [item])
        if isinstance(stored, ApiError):
            raise stored
        return stored

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
