"""The project's Surveys tab: its surveys, a new one from a template or blank, the builder (questions with
their translations side by side, trigger, audience, limits) with a live preview, "Activate"/"Pause",
deleting one, its results with a chart per question, its responses and their downloads. Admins build;
members see the same pages without the means to change them.

The builder works as plain form posts: its "Add question", "Add choice", move and remove buttons post
the whole form and get it back with the change made (nothing saved until "Save", "Activate" or
"Pause"); htmx swaps the same answer in place and refreshes the preview as the author types.
Everything goes through the Surveys service the REST API uses, so its refusals name the input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar import Controller, Request, get, post
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Stream

from admin_ui.controllers.exports import export_format
from admin_ui.forms import Form, field_error
from admin_ui.listing import PAGE_SIZE, Pages, choice, page_number
from admin_ui.rendering import go_to, render
from admin_ui.survey_form import (
    DISPLAYS,
    QUESTION_TYPES,
    SurveyDraft,
    apply_edit,
    describe,
    draft_from_form,
    draft_of,
    errors_of,
    fill_choices,
    new_survey,
    survey_change,
)
from admin_ui.survey_preview import preview_of
from admin_ui.survey_results import result_views
from app.compression import SKIP_COMPRESSION
from app.db.models import Project, Survey, SurveyResponse, SurveyStatus
from app.db.read_routing import REPLICA_READS, read_sessions
from app.dependencies import provide
from app.errors import InvalidRequest
from app.exports import SURVEY_RESPONSES, export_response
from app.schemas.pagination import Pagination
from app.surveys.responses import SurveyResponses, response_conditions
from app.surveys.results import survey_results
from app.surveys.service import Surveys
from app.surveys.templates import TEMPLATES
from tenants.permissions import needs
from tenants.scope import Access

STATUS_OF_ACTION = {"save": None, "activate": SurveyStatus.ACTIVE.value, "pause": SurveyStatus.PAUSED.value}
DONE = {
    "save": "Saved.",
    "activate": "Saved and activated: visitors who match its trigger and audience now see it.",
    "pause": "Saved and paused: no visitor sees it until you activate it again.",
}
COMPLETED = {"true": True, "false": False}
LATEST_RESPONSES = 50
"""Where the latest open-text answers shown with the results come from."""
PREVIEW = needs(Access.READ)
"""The preview shows what was posted and changes nothing."""


@dataclass
class NewSurveyForm:
    template: str = ""
    name: str = ""


class SurveysController(Controller):
    path = "/projects/{project_id:str}/surveys"
    include_in_schema = False
    dependencies = {
        "surveys": provide(Surveys),
        "survey_responses": provide(SurveyResponses),
    }

    async def _list(self, request: HTMXRequest, project: Project, surveys: Surveys, **context: Any) -> Any:
        page = page_number(request.query_params.get("page"))
        rows, total = await surveys.list(page=page, limit=PAGE_SIZE)
        base = f"/projects/{project.id}/surveys"
        context.setdefault("errors", {})
        context.setdefault("values", {"template": "nps", "name": ""})
        return render(
            request,
            "surveys.html",
            project=project,
            surveys=rows,
            pages=Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), base, {}),
            counts=await surveys.response_counts(rows),
            templates=[(key, template.name) for key, template in TEMPLATES.items()],
            **context,
        )

    @get("/")
    async def list_surveys(self, request: HTMXRequest, project: Project, surveys: Surveys) -> Any:
        deleted = request.query_params.get("deleted")
        return await self._list(
            request, project, surveys, notice="Deleted the survey and its responses." if deleted else None
        )

    @post("/")
    async def create(
        self, request: HTMXRequest, project: Project, surveys: Surveys, data: Form[NewSurveyForm]
    ) -> Any:
        values = {"template": data.template, "name": data.name.strip()}
        try:
            survey = await surveys.create(new_survey(data.template, values["name"]))
        except InvalidRequest as exc:
            return await self._list(
                request, project, surveys, status_code=400, errors=field_error(exc), values=values
            )
        return go_to(request, f"/projects/{project.id}/surveys/{survey.id}?created=1")

    async def _builder(
        self,
        request: HTMXRequest,
        project: Project,
        surveys: Surveys,
        survey: Survey,
        draft: SurveyDraft,
        *,
        preview_language: str = "",
        **context: Any,
    ) -> Any:
        fill_choices(draft)
        return render(
            request,
            "survey.html",
            fragment="partials/_survey_builder.html",
            project=project,
            survey=survey,
            response_count=(await surveys.response_counts([survey]))[survey.id],
            draft=draft,
            preview=preview_of(draft, preview_language),
            question_types=QUESTION_TYPES,
            displays=DISPLAYS,
            describe=describe,
            errors=context.pop("errors", {}),
            **context,
        )

    @get("/{survey_id:uuid}")
    async def builder(self, request: HTMXRequest, project: Project, surveys: Surveys, survey_id: UUID) -> Any:
        survey = await surveys.get(survey_id)
        return await self._builder(
            request,
            project,
            surveys,
            survey,
            draft_of(survey),
            preview_language=request.query_params.get("preview_language", ""),
            notice="Created as a draft: nobody sees it until you activate it."
            if request.query_params.get("created")
            else None,
        )

    @post("/{survey_id:uuid}")
    async def change(self, request: HTMXRequest, project: Project, surveys: Surveys, survey_id: UUID) -> Any:
        """Save, Activate or Pause the survey as the form shows it, or make a list edit and show the form."""
        survey = await surveys.get(survey_id)
        form = await request.form()
        draft = draft_from_form({name: form.getall(name) for name in form})
        action = str(form.get("action") or "save")
        language = str(form.get("preview_language") or "")
        if action not in STATUS_OF_ACTION:
            # after a list edit, the row it made; after a change htmx posts, the input changed
            focus = apply_edit(draft, action) or request.headers.get("hx-trigger-name")
            return await self._builder(
                request, project, surveys, survey, draft, preview_language=language, focus=focus
            )
        try:
            await surveys.update(survey, survey_change(draft, STATUS_OF_ACTION[action]))
        except InvalidRequest as exc:
            refused = {"activate": "not activated", "pause": "not paused"}.get(action, "not saved")
            return await self._builder(
                request,
                project,
                surveys,
                survey,
                draft,
                preview_language=language,
                status_code=400,
                errors=errors_of(exc),
                refused=refused,
            )
        return await self._builder(
            request,
            project,
            surveys,
            survey,
            draft_of(survey),
            preview_language=language,
            notice=DONE[action],
        )

    @post("/{survey_id:uuid}/preview", opt=PREVIEW)
    async def preview(self, request: HTMXRequest, project: Project, surveys: Surveys, survey_id: UUID) -> Any:
        await surveys.get(survey_id)
        form = await request.form()
        draft = draft_from_form({name: form.getall(name) for name in form})
        return render(
            request,
            "partials/_survey_preview.html",
            preview=preview_of(draft, str(form.get("preview_language") or "")),
        )

    @get("/{survey_id:uuid}/delete")
    async def confirm_delete(
        self, request: HTMXRequest, project: Project, surveys: Surveys, survey_id: UUID
    ) -> Any:
        survey = await surveys.get(survey_id)
        return render(
            request,
            "survey_delete.html",
            project=project,
            survey=survey,
            response_count=(await surveys.response_counts([survey]))[survey.id],
        )

    @post("/{survey_id:uuid}/delete")
    async def delete(self, request: HTMXRequest, project: Project, surveys: Surveys, survey_id: UUID) -> Any:
        survey = await surveys.get(survey_id)
        await surveys.delete(survey)
        return go_to(request, f"/projects/{project.id}/surveys?deleted=1")

    @get("/{survey_id:uuid}/results", opt=REPLICA_READS)
    async def results(
        self,
        request: HTMXRequest,
        project: Project,
        surveys: Surveys,
        survey_responses: SurveyResponses,
        survey_id: UUID,
    ) -> Any:
        survey = await surveys.get(survey_id)
        query = request.query_params
        filters = {name: query.get(name, "").strip() for name in ("since", "until", "language")}
        context: dict[str, Any] = {"errors": {}}
        try:
            language = choice(filters["language"], survey.languages, "language")
            results = await survey_results(
                surveys.session,
                survey,
                since=filters["since"] or None,
                until=filters["until"] or None,
                language=language,
            )
            latest, _ = await survey_responses.list(survey, language=language, limit=LATEST_RESPONSES)
            context.update(results=results, questions=result_views(survey, results, latest))
        except InvalidRequest as exc:
            context.update(errors=field_error(exc), status_code=400)
        return render(
            request,
            "survey_results.html",
            project=project,
            survey=survey,
            response_count=(await surveys.response_counts([survey]))[survey.id],
            filters=filters,
            **context,
        )

    @get("/{survey_id:uuid}/responses", opt=REPLICA_READS)
    async def responses(
        self,
        request: HTMXRequest,
        project: Project,
        surveys: Surveys,
        survey_responses: SurveyResponses,
        survey_id: UUID,
    ) -> Any:
        survey = await surveys.get(survey_id)
        query = request.query_params
        filters = {name: query.get(name, "") for name in ("completed", "language")}
        page = page_number(query.get("page"))
        completed = choice(filters["completed"], COMPLETED, "completed")
        language = choice(filters["language"], survey.languages, "language")
        rows, total = await survey_responses.list(
            survey,
            completed=COMPLETED[completed] if completed else None,
            language=language,
            page=page,
            limit=PAGE_SIZE,
        )
        base = f"/projects/{project.id}/surveys/{survey.id}/responses"
        pages = Pages(Pagination.of(page=page, limit=PAGE_SIZE, total=total), base, filters)
        return render(
            request,
            "survey_responses.html",
            fragment="partials/_survey_responses.html",
            project=project,
            survey=survey,
            response_count=(await surveys.response_counts([survey]))[survey.id],
            responses=rows,
            pages=pages,
            filters=filters,
            download_query=pages.query_for(1),
        )

    @get("/{survey_id:uuid}/responses/export", opt={SKIP_COMPRESSION: True, **REPLICA_READS})
    async def export(
        self, request: Request[Any, Any, Any], project: Project, surveys: Surveys, survey_id: UUID
    ) -> Stream:
        """Every response the list's filters match, as CSV or NDJSON, through the API's streamed export."""
        survey = await surveys.get(survey_id)
        completed = choice(request.query_params.get("completed"), COMPLETED, "completed")
        language = choice(request.query_params.get("language"), survey.languages, "language")
        query = (
            SURVEY_RESPONSES.select()
            .where(
                *response_conditions(
                    survey, completed=COMPLETED[completed] if completed else None, language=language
                )
            )
            .order_by(SurveyResponse.created_at.desc(), SurveyResponse.id.desc())
        )
        return export_response(
            await read_sessions(request), project, SURVEY_RESPONSES, query, export_format(request)
        )
