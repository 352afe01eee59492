"""Surveys of a project: create (as given or from a template), list, read, change, delete."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get, patch, post
from litestar.di import Provide
from litestar.params import Parameter

from app.api.paging import Limit, Page
from app.db.ids import parse_uuid
from app.db.models import Survey
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide_surveys
from app.errors import error_responses
from app.schemas.pagination import Pagination
from app.surveys.bodies import StatusName, SurveyCreateBody, SurveyList, SurveyOut, SurveyPatchBody
from app.surveys.service import Surveys

StatusFilter = Annotated[StatusName | None, Parameter(description="Only surveys in this status.")]
ONE = "/{survey_id:str}"


async def provide_survey(survey_id: str, surveys: Surveys) -> Survey:
    return await surveys.get(parse_uuid(survey_id, "survey_id"))


class SurveyController(Controller):
    path = "/projects/{project_id:str}/surveys"
    tags = ["Surveys"]
    dependencies = {"surveys": Provide(provide_surveys), "survey": Provide(provide_survey)}

    @post(
        "/",
        status_code=201,
        summary="Create a survey, or a draft from a template",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def create_survey(self, data: SurveyCreateBody, surveys: Surveys) -> SurveyOut:
        """With `template` (nps, csat, ces, pmf or churn_reason) a draft with the template's questions in
        en, de and sv. Created active, a survey must pass the activation checks."""
        survey = await surveys.create(data)
        return SurveyOut.of(survey, 0)

    @get(
        "/",
        summary="List surveys, newest first",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_surveys(
        self, surveys: Surveys, page: Page = 1, limit: Limit = 20, status: StatusFilter = None
    ) -> SurveyList:
        """Pages through the project's surveys, each with its response count."""
        rows, total = await surveys.list(status=status, page=page, limit=limit)
        counts = await surveys.response_counts(rows)
        return SurveyList(
            surveys=[SurveyOut.of(row, counts[row.id]) for row in rows],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(ONE, summary="Get one survey", responses=error_responses(400, 401, 403, 404))
    async def get_survey(self, survey: Survey, surveys: Surveys) -> SurveyOut:
        """One survey of the project; another project's survey is not found."""
        return SurveyOut.of(survey, (await surveys.response_counts([survey]))[survey.id])

    @patch(
        ONE,
        summary="Change a survey; status active activates it",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_survey(self, survey: Survey, data: SurveyPatchBody, surveys: Surveys) -> SurveyOut:
        """The fields sent change, all or none. An active survey (or one being activated) must have every
        text in each of its languages and skip logic that only goes forward (400 naming the field)."""
        await surveys.update(survey, data)
        return SurveyOut.of(survey, (await surveys.response_counts([survey]))[survey.id])

    @delete(ONE, summary="Delete a survey with its responses", responses=error_responses(400, 401, 403, 404))
    async def delete_survey(self, survey: Survey, surveys: Surveys) -> None:
        """Its responses, counts and links go with it."""
        await surveys.delete(survey)
