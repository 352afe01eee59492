"""Surveys of a project: create (as given or from a template), list, read, change, delete."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, patch, post
from litestar.di import Provide
from litestar.params import Parameter
from litestar.response import Stream
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.paging import Limit, Page
from app.api.parameters import Since, Until
from app.compression import SKIP_COMPRESSION
from app.db.ids import parse_uuid
from app.db.models import Project, Survey, SurveyResponse
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide_survey_links, provide_survey_responses, provide_surveys, request_settings
from app.errors import error_responses
from app.exports import SURVEY_RESPONSES, ExportFormat, export_response
from app.schemas.pagination import Pagination
from app.surveys.bodies import (
    LifecycleEventBody,
    LifecycleLinks,
    StatusName,
    SurveyCreateBody,
    SurveyLinkOut,
    SurveyList,
    SurveyOut,
    SurveyPatchBody,
    SurveyResponseList,
    SurveyResponseOut,
    SurveyResults,
)
from app.surveys.definition import LANGUAGE_PATTERN
from app.surveys.links import SurveyLinks
from app.surveys.responses import SurveyResponses, response_conditions
from app.surveys.results import survey_results
from app.surveys.service import Surveys

StatusFilter = Annotated[StatusName | None, Parameter(description="Only surveys in this status.")]
LanguageFilter = Annotated[
    str | None,
    Parameter(pattern=LANGUAGE_PATTERN, max_length=16, description="Only responses in this language."),
]
CompletedFilter = Annotated[
    bool | None, Parameter(description="true: only completed responses; false: only partial ones.")
]
ONE = "/{survey_id:str}"


async def provide_survey(survey_id: str, surveys: Surveys) -> Survey:
    return await surveys.get(parse_uuid(survey_id, "survey_id"))


class SurveyController(Controller):
    path = "/projects/{project_id:str}/surveys"
    tags = ["Surveys"]
    dependencies = {
        "surveys": Provide(provide_surveys),
        "survey": Provide(provide_survey),
        "survey_responses": Provide(provide_survey_responses),
    }

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

    @get(
        ONE + "/results",
        summary="Get a survey's results, every language in one",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def get_survey_results(
        self,
        survey: Survey,
        db_session: AsyncSession,
        since: Since = None,
        until: Until = None,
        language: LanguageFilter = None,
    ) -> SurveyResults:
        """Responses and completed responses, and per question its answers with: rating a distribution
        and mean, nps a distribution and the score, choice questions and boolean the count per choice.
        Summed from per-day counters (whole UTC days of the day each response began), so a result costs
        the same at a million responses as at ten."""
        return await survey_results(db_session, survey, since=since, until=until, language=language)

    @get(
        ONE + "/responses",
        summary="List a survey's responses, newest first",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_survey_responses(
        self,
        survey: Survey,
        survey_responses: SurveyResponses,
        page: Page = 1,
        limit: Limit = 20,
        completed: CompletedFilter = None,
        language: LanguageFilter = None,
    ) -> SurveyResponseList:
        """Partial responses too, unless completed=true."""
        rows, total = await survey_responses.list(
            survey, completed=completed, language=language, page=page, limit=limit
        )
        return SurveyResponseList(
            responses=[SurveyResponseOut.of(row) for row in rows],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get(
        ONE + "/responses/export",
        summary="Export a survey's responses as CSV or NDJSON, with the list's filters (streamed)",
        responses=error_responses(400, 401, 403, 404),
        opt={SKIP_COMPRESSION: True, **REPLICA_READS},
    )
    async def export_survey_responses(
        self,
        project: Project,
        survey: Survey,
        request: Request[Any, Any, Any],
        completed: CompletedFilter = None,
        language: LanguageFilter = None,
        format: ExportFormat = "csv",
    ) -> Stream:
        """Every matching response in one download, newest first, read from a cursor as it is sent; the
        answers are one JSON column in CSV, and cells a spreadsheet would run as formulas are defused."""
        query = (
            SURVEY_RESPONSES.select()
            .where(*response_conditions(survey, completed=completed, language=language))
            .order_by(SurveyResponse.created_at.desc(), SurveyResponse.id.desc())
        )
        return export_response(await read_sessions(request), project, SURVEY_RESPONSES, query, format)


@post(
    "/projects/{project_id:str}/lifecycle-events",
    status_code=200,
    summary="Report a user's lifecycle event; get a survey link per survey it triggers",
    tags=["Surveys"],
    responses=error_responses(400, 401, 403, 404, 413, 415),
    dependencies={"survey_links": Provide(provide_survey_links)},
)
async def lifecycle_event(
    request: Request[Any, Any, Any], data: LifecycleEventBody, survey_links: SurveyLinks
) -> LifecycleLinks:
    """From the customer's backend (a write token): one single-use link, valid 30 days, per active
    survey whose trigger names the event, for the customer's own mailer. The link opens a hosted survey
    page in the user's language when the survey has it; its answers are stored with submitted_by the
    user's id, verified. No survey names the event: an empty list."""
    issued = await survey_links.issue(
        data.event, data.user.id, data.user.language, request_settings(request).base_url
    )
    return LifecycleLinks(
        surveys=[SurveyLinkOut(survey_id=str(link.survey_id), url=link.url) for link in issued]
    )
