"""The public survey endpoints the survey widget calls from visitors' browsers, without a token: the
project's active surveys, one survey's questions in one language, and responses.

Each passes the same gate as the other public submissions (project key 404, allowed origins 403,
per-client and per-project budgets 429); CORS answers follow the project's allowed origins.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Parameter
from litestar.response.base import ASGIResponse
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.ids import parse_uuid
from app.db.models import Survey, SurveyStatus
from app.errors import NotFound, error_responses
from app.ingest import spam_reason
from app.operations.metrics import SPAM_SUBMISSIONS
from app.public.paths import ACTIVE_SURVEYS, SURVEY_DEFINITION, SURVEY_RESPONSE
from app.public.receipts import documented, receipt
from app.request_checks import strict_body
from app.state import active_surveys_of, ingest_of, survey_submissions_of
from app.surveys.bodies import (
    ActiveSurveys,
    ChoiceIn,
    PublicSurveyResponseBody,
    QuestionInLanguage,
    SurveyDefinition,
    SurveyResponseReceipt,
)
from app.surveys.definition import LANGUAGE_PATTERN, questions_of
from app.surveys.intake import SubmittedResponse

ProjectKey = Annotated[
    UUID, Parameter(description="The project's public key, as the widget's data-project-key.")
]
Lang = Annotated[
    str | None,
    Parameter(
        pattern=LANGUAGE_PATTERN,
        max_length=16,
        description="The visitor's language; a language the survey lacks gets its default (the first).",
    ),
]
READ_ERRORS = error_responses(400, 403, 404, 429)


class PublicSurveyController(Controller):
    path = "/"
    tags = ["Public collection"]

    @get(
        ACTIVE_SURVEYS,
        summary="List a project's active surveys for the survey widget's loader",
        responses={
            200: ResponseSpec(data_container=ActiveSurveys, description="The project's active surveys"),
            304: ResponseSpec(None, description="Not modified: the ETag sent in If-None-Match is current"),
            **READ_ERRORS,
        },
    )
    async def active_surveys(
        self, request: Request[Any, Any, Any], project_key: ProjectKey
    ) -> Response[bytes]:
        """Each active survey's id, trigger, audience, cooldown, display and languages: what the loader
        needs to decide whether one shows (its questions come from .../definition when it does). Served
        from each worker's memory with an ETag; `If-None-Match` with it answers 304."""
        ingest = ingest_of(request.scope)
        project = await ingest.admit(request.scope, "surveys_active", project_key)
        listed = await active_surveys_of(request.scope).of(project.id, ingest.generation or 0)
        headers = {"ETag": listed.etag, "Cache-Control": "no-cache"}
        if _matches(request.headers.get("if-none-match"), listed.etag):
            return Response(b"", status_code=304, headers=headers)
        return Response(listed.content, media_type="application/json", headers=headers)

    @get(SURVEY_DEFINITION, summary="Get an active survey's questions in one language", responses=READ_ERRORS)
    async def survey_definition(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        survey_id: str,
        project_key: ProjectKey,
        lang: Lang = None,
    ) -> SurveyDefinition:
        """The questions, their choices and skip logic in the visitor's language when the survey has it,
        else in its default language. Only an active survey is shown: any other is 404."""
        project = await ingest_of(request.scope).admit(request.scope, "surveys_definition", project_key)
        survey = await db_session.scalar(
            select(Survey).where(
                Survey.id == parse_uuid(survey_id, "survey_id"), Survey.project_id == project.id
            )
        )
        if survey is None or survey.status != SurveyStatus.ACTIVE.value:
            raise NotFound("survey_id: no active survey with this id in this project")
        return definition_in(survey, lang)

    @post(
        SURVEY_RESPONSE,
        status_code=200,
        summary="Submit answers to a survey, or add to an earlier response",
        responses={
            **documented(SurveyResponseReceipt, 200, "The response is stored: its id"),
            **error_responses(400, 403, 404, 413, 429),
        },
    )
    async def submit_survey_response(
        self, request: Request[Any, Any, Any], survey_id: str, data: PublicSurveyResponseBody
    ) -> ASGIResponse:
        """From the survey widget; the page's origin must be allowed by the project. Answers are kept as
        given, a partial response too; a later call with the answer's `response_id` adds to that response
        (an answer to the same question replaces the earlier one). A value that does not fit its question,
        an unknown question, a language the survey lacks or a survey that is not active is 400 naming it,
        and nothing stored before is lost. Concurrent submits are stored together in one transaction and
        each is answered once that is committed."""
        data = await strict_body(request, data)
        visit = ingest_of(request.scope).visit(request.scope, "survey_responses", data.project_key)
        reason = spam_reason(data.website, data.elapsed_ms)
        submitted = SubmittedResponse(survey_id, data, reason is not None)
        stored = await survey_submissions_of(request.scope).submit(visit, submitted)
        if reason is not None:
            SPAM_SUBMISSIONS.labels("survey_responses", reason).inc()
        return receipt(SurveyResponseReceipt(response_id=str(stored.id)), 200)


def definition_in(survey: Survey, lang: str | None) -> SurveyDefinition:
    """The survey's questions in `lang` when it has it, else in its default language."""
    language = lang if lang in survey.languages else survey.languages[0]
    default = survey.languages[0]

    def text(texts: dict[str, str]) -> str:
        return texts.get(language) or texts.get(default) or next(iter(texts.values()), "")

    return SurveyDefinition(
        id=str(survey.id),
        language=language,
        display=survey.display,
        questions=[
            QuestionInLanguage(
                id=question.id,
                type=question.type,
                text=text(question.text),
                required=question.required,
                scale=question.scale,
                choices=[ChoiceIn(choice.id, text(choice.text)) for choice in question.choices]
                if question.choices
                else None,
                next=[{"if": branch.if_, "goto": branch.goto} for branch in question.next]
                if question.next
                else None,
            )
            for question in questions_of(survey.questions)
        ],
    )


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return etag in tags or "*" in tags
