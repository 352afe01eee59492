"""The hosted survey page a lifecycle event's link opens: server-rendered, one form with every question,
a plain form post, in the user's language when the survey has it. No session and no CSRF token: the
link's single-use token is what authorizes the answers, and only its own user gets the link."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Router, get, post
from litestar.datastructures import FormMultiDict
from litestar.plugins.htmx import HTMXRequest
from sqlalchemy.ext.asyncio import AsyncSession

from admin_ui.console_errors import CONSOLE_EXCEPTION_HANDLERS
from admin_ui.rendering import render
from admin_ui.security_headers import add_security_headers
from app.errors import InvalidRequest
from app.surveys.answers import missing_required, value_problem
from app.surveys.bodies import AnswerIn
from app.surveys.definition import Question, questions_of
from app.surveys.links import LINK_PATH, LinkGone, OpenedLink, answer_by_link, open_link
from app.surveys.page_texts import page_texts
from app.surveys.responses import Submission


class HostedSurveyController(Controller):
    path = LINK_PATH.rstrip("/")
    include_in_schema = False

    @get("/{token:str}")
    async def survey_page(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        try:
            opened = await open_link(db_session, token)
        except LinkGone as gone:
            return _gone(request, gone)
        return _page(request, opened, {}, {})

    @post("/{token:str}", status_code=200)
    async def answer_survey(self, request: HTMXRequest, db_session: AsyncSession, token: str) -> Any:
        """Stores the answers as the link's user and uses the link up; answers that do not fit come
        back beside their questions, with what was entered kept (nothing is stored then)."""
        try:
            opened = await open_link(db_session, token)
        except LinkGone as gone:
            return _gone(request, gone)
        questions = questions_of(opened.survey.questions)
        form = await request.form()
        answers, errors = _read(questions, form)
        if not errors and (missing := missing_required(questions, _as_stored(answers))) is not None:
            errors[missing.id] = "answer_this"
        values = {q.id: form.getall(f"q_{q.id}", []) for q in questions}
        if errors:
            return _page(request, opened, values, errors, status_code=400)
        try:
            await answer_by_link(db_session, token, Submission(answers=answers, language=opened.language))
        except LinkGone as gone:
            return _gone(request, gone)
        except InvalidRequest:
            return _page(request, opened, values, {"": "errors"}, status_code=400)
        texts = page_texts(opened.language)
        return render(
            request,
            "hosted_survey.html",
            bare=True,
            done=True,
            t=texts,
            language=opened.language,
            survey=opened.survey,
        )


def _read(questions: list[Question], form: FormMultiDict) -> tuple[list[AnswerIn], dict[str, str]]:
    """The answers the form holds, as the public submit takes them, and the questions whose answer does
    not fit (their error's text key)."""
    answers, errors = [], {}
    for question in questions:
        given = [
            value for value in form.getall(f"q_{question.id}", []) if isinstance(value, str) and value.strip()
        ]
        if not given:
            continue
        value = _value(question, given)
        if value is None or value_problem(question, value) is not None:
            errors[question.id] = "not_valid"
            continue
        answers.append(AnswerIn(question_id=question.id, value=value))
    return answers, errors


def _value(question: Question, given: list[str]) -> Any:
    if question.type == "multiple_choice":
        return given
    text = given[0]
    if question.type in ("rating", "nps"):
        return int(text) if text.isdigit() else None
    if question.type == "boolean":
        return {"true": True, "false": False}.get(text)
    return text


def _as_stored(answers: list[AnswerIn]) -> list[dict[str, Any]]:
    return [{"question_id": answer.question_id, "value": answer.value} for answer in answers]


def _page(
    request: HTMXRequest,
    opened: OpenedLink,
    values: dict[str, list[Any]],
    errors: dict[str, str],
    status_code: int = 200,
) -> Any:
    language, default = opened.language, opened.survey.languages[0]

    def text(texts: dict[str, str]) -> str:
        return texts.get(language) or texts.get(default) or ""

    return render(
        request,
        "hosted_survey.html",
        status_code=status_code,
        bare=True,
        done=False,
        t=page_texts(language),
        language=language,
        survey=opened.survey,
        questions=questions_of(opened.survey.questions),
        text=text,
        values=values,
        errors=errors,
    )


def _gone(request: Request[Any, Any, Any], gone: LinkGone) -> Any:
    language = _browser_language(request)
    return render(
        request,  # type: ignore[arg-type]
        "hosted_survey.html",
        status_code=410,
        bare=True,
        gone=gone.reason,
        t=page_texts(language),
        language=language,
    )


def _browser_language(request: Request[Any, Any, Any]) -> str:
    """The first of en, de, sv the browser asks for: a link that opens nothing has no survey to ask."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in ("en", "de", "sv"):
            return code
    return "en"


def hosted_survey_router() -> Router:
    return Router(
        path="/",
        route_handlers=[HostedSurveyController],
        exception_handlers=CONSOLE_EXCEPTION_HANDLERS,
        after_request=add_security_headers,
        request_class=HTMXRequest,
        include_in_schema=False,
    )
