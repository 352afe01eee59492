"""The bodies of the survey routes: what the API, the public endpoints and the MCP tools take and give."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec

from app.db.models import Survey, SurveyDisplay, SurveyResponse, SurveyStatus
from app.db.models.field_rules import literal_of
from app.schemas.fields import NAME_PATTERN, ElapsedMs, Honeypot, Path, SubmittedBy, UserSignature
from app.schemas.pagination import Pagination
from app.surveys.definition import (
    Audience,
    Language,
    Languages,
    Questions,
    Trigger,
    questions_of,
    stored,
)
from app.surveys.templates import TemplateName
from app.timestamps import iso_z

StatusName = literal_of(SurveyStatus)
DisplayName = literal_of(SurveyDisplay)
SurveyName = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=200, pattern=NAME_PATTERN, description="One line, 1 to 200."),
]
CooldownDays = Annotated[int, msgspec.Meta(ge=0, le=3650)]
MaxResponses = Annotated[int, msgspec.Meta(ge=1, le=100_000_000)]


class SurveyCreateBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/surveys: a survey as given, or a draft from a `template` (whose
    questions, in en, de and sv, cannot be given with it)."""

    template: TemplateName | None = None
    name: SurveyName | None = None
    """Required without a template; a template has a name of its own."""
    status: StatusName = "draft"
    languages: Languages | None = None
    """The first is the default; ["en"] when left out."""
    questions: Questions | None = None
    display: DisplayName = "modal"
    trigger: Trigger | None = None
    audience: Audience | None = None
    cooldown_days: CooldownDays = 90
    ends_at: datetime | None = None
    max_responses: MaxResponses | None = None


class SurveyPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """PATCH /projects/{project_id}/surveys/{survey_id}: the fields sent change. Setting status active
    (or changing an active survey) checks that every text is there in every language and that skip logic
    only goes forward."""

    name: SurveyName | msgspec.UnsetType = msgspec.UNSET
    status: StatusName | msgspec.UnsetType = msgspec.UNSET
    languages: Languages | msgspec.UnsetType = msgspec.UNSET
    questions: Questions | msgspec.UnsetType = msgspec.UNSET
    display: DisplayName | msgspec.UnsetType = msgspec.UNSET
    trigger: Trigger | msgspec.UnsetType = msgspec.UNSET
    audience: Audience | msgspec.UnsetType = msgspec.UNSET
    cooldown_days: CooldownDays | msgspec.UnsetType = msgspec.UNSET
    ends_at: datetime | msgspec.UnsetType | None = msgspec.UNSET
    max_responses: MaxResponses | msgspec.UnsetType | None = msgspec.UNSET


class SurveyOut(msgspec.Struct):
    id: str
    project_id: str
    name: str
    status: StatusName
    languages: list[str]
    questions: list[Any]
    display: DisplayName
    trigger: Any
    audience: Any
    cooldown_days: int
    ends_at: str | None
    max_responses: int | None
    response_count: int
    """Responses stored, partial ones included (spam excluded)."""
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, survey: Survey, response_count: int) -> SurveyOut:
        return cls(
            id=str(survey.id),
            project_id=str(survey.project_id),
            name=survey.name,
            status=survey.status,  # type: ignore[arg-type]
            languages=list(survey.languages),
            questions=stored(questions_of(survey.questions)),
            display=survey.display,  # type: ignore[arg-type]
            trigger=survey.trigger,
            audience=survey.audience,
            cooldown_days=survey.cooldown_days,
            ends_at=iso_z(survey.ends_at) if survey.ends_at else None,
            max_responses=survey.max_responses,
            response_count=response_count,
            created_at=iso_z(survey.created_at),
            updated_at=iso_z(survey.updated_at),
        )


class SurveyList(msgspec.Struct):
    surveys: list[SurveyOut]
    pagination: Pagination


class AnswerOut(msgspec.Struct):
    question_id: str
    value: Any


class SurveyResponseOut(msgspec.Struct):
    id: str
    survey_id: str
    answers: list[AnswerOut]
    language: str
    path: str | None
    completed: bool
    submitted_by: str | None
    submitted_by_verified: bool
    created_at: str

    @classmethod
    def of(cls, response: SurveyResponse) -> SurveyResponseOut:
        return cls(
            id=str(response.id),
            survey_id=str(response.survey_id),
            answers=[AnswerOut(a["question_id"], a["value"]) for a in response.answers],
            language=response.language,
            path=response.path,
            completed=response.completed,
            submitted_by=response.submitted_by,
            submitted_by_verified=response.submitted_by_verified,
            created_at=iso_z(response.created_at),
        )


class SurveyResponseList(msgspec.Struct):
    responses: list[SurveyResponseOut]
    pagination: Pagination


class NpsOut(msgspec.Struct):
    score: int | None
    """% promoters (9-10) minus % detractors (0-6), rounded; None without answers."""
    promoters: int
    passives: int
    detractors: int


class SurveyTheme(msgspec.Struct):
    label: str
    """The answer nearest the group's centre, in its most common language."""
    keywords: list[str]
    answers: int
    """Answers in the group, among those the themes were drawn from."""
    name: str = ""
    """Two to five of the answers' own words in their most common language."""
    confidence: float = 0.0
    """0..1: how close the answers sit to the group's centre."""


class QuestionResult(msgspec.Struct, omit_defaults=True):
    id: str
    type: str
    answers: int
    """Responses that answered it."""
    distribution: dict[str, int] | None = None
    """rating and nps: responses per value."""
    mean: float | None = None
    """rating: the mean answer, to two decimals."""
    nps: NpsOut | None = None
    choices: dict[str, int] | None = None
    """Choice questions: answers per choice id (each choice of every question, zero included); boolean:
    "true" and "false"."""
    themes: list[SurveyTheme] | None = None
    """open_text: groups of answers that say the same thing, biggest first, drawn from the latest 500
    answers by the insights engine (empty while insights are off or the answers are being embedded)."""


class SurveyResults(msgspec.Struct):
    responses: int
    completed: int
    questions: list[QuestionResult]


class AnswerIn(msgspec.Struct, forbid_unknown_fields=True):
    question_id: Annotated[str, msgspec.Meta(max_length=100)]
    value: Any
    """open_text a string of at most 5,000 characters, rating an integer on its scale, nps 0 to 10,
    single_choice a choice id, multiple_choice a list of choice ids, boolean true or false."""


class PublicSurveyResponseBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /surveys/{survey_id}/responses/submit (public)."""

    project_key: UUID
    answers: Annotated[list[AnswerIn], msgspec.Meta(max_length=10)]
    language: Language
    path: Path | None = None
    completed: bool = False
    response_id: UUID | None = None
    """The id an earlier call answered: these answers are added to that response."""
    submitted_by: SubmittedBy | None = None
    user_signature: UserSignature | None = None
    website: Honeypot = ""
    elapsed_ms: ElapsedMs | None = None


class SurveyResponseReceipt(msgspec.Struct):
    response_id: str


class ActiveSurvey(msgspec.Struct, omit_defaults=True):
    """What the widget's loader needs to decide whether a survey shows; its questions come on demand."""

    id: str
    trigger: Any
    audience: Any
    cooldown_days: int
    display: str
    languages: list[str]


class ActiveSurveys(msgspec.Struct):
    surveys: list[ActiveSurvey]


class ChoiceIn(msgspec.Struct):
    id: str
    text: str


class QuestionInLanguage(msgspec.Struct, omit_defaults=True):
    id: str
    type: str
    text: str
    required: bool = False
    scale: int | None = None
    choices: list[ChoiceIn] | None = None
    next: list[Any] | None = None


class SurveyDefinition(msgspec.Struct):
    """GET /surveys/{survey_id}/definition (public): the questions in one language."""

    id: str
    language: str
    display: str
    questions: list[QuestionInLanguage]


class LifecycleUser(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id: SubmittedBy
    email: Annotated[str, msgspec.Meta(max_length=320)] | None = None
    language: Language | None = None


class LifecycleEventBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/lifecycle-events."""

    event: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
    user: LifecycleUser


class SurveyLinkOut(msgspec.Struct):
    survey_id: str
    url: str
    """Opens the hosted survey page once; valid for 30 days."""


class LifecycleLinks(msgspec.Struct):
    surveys: list[SurveyLinkOut]
