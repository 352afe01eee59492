"""The arguments of each MCP tool, as msgspec structs: decoding enforces the same field rules as the REST
API's query parameters and bodies (the create and update tools take the REST bodies themselves), and the
tools' input schemas are generated from them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from app.db.models import RatingType
from app.db.models.field_rules import PATH_MAX_LENGTH, PATH_PATTERN, literal_of
from app.db.paging import MAX_LIMIT, MAX_PAGE
from app.ideas.bodies import StatusName as IdeaStatusName
from app.ideas.bodies import Tags, Title
from app.schemas.feedback import FeedbackSourceName
from app.schemas.feedback_requests import (
    FeedbackCreateBody,
    FeedbackPatchBody,
    FeedbackStatusName,
    FeedbackTypeName,
)
from app.surveys.bodies import StatusName as SurveyStatusName
from app.surveys.bodies import SurveyName
from app.surveys.definition import Language
from app.surveys.templates import TemplateName

ProjectRef = Annotated[str, msgspec.Meta(min_length=1, description="The project's id or public key.")]
FeedbackRef = Annotated[str, msgspec.Meta(description="The feedback item's id.")]
Page = Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE, description="1-indexed page.")]
Limit = Annotated[int, msgspec.Meta(ge=1, le=MAX_LIMIT, description=f"Items per page, at most {MAX_LIMIT}.")]
PathFilter = Annotated[
    str,
    msgspec.Meta(max_length=PATH_MAX_LENGTH, pattern=PATH_PATTERN, description="Only this exact page path."),
]
Search = Annotated[str, msgspec.Meta(max_length=200, description="Case-insensitive substring.")]
RatingTypeName = Annotated[literal_of(RatingType), msgspec.Meta(description="helpful, star or nps.")]  # type: ignore[valid-type]
Semantic = Annotated[
    str, msgspec.Meta(min_length=1, max_length=500, description="Order by meaning: most similar first.")
]
ThemeRef = Annotated[str, msgspec.Meta(description="Only the items of this theme (list_themes).")]
Moment = Annotated[
    str,
    msgspec.Meta(description="ISO 8601 date or date-time, UTC unless an offset is given."),
]
Until = Annotated[
    str, msgspec.Meta(description="End, exclusive; a date means through the end of that day (UTC).")
]


class Arguments(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """No arguments."""


class ProjectArguments(Arguments):
    project_id: ProjectRef


class FeedbackListArguments(ProjectArguments):
    status: FeedbackStatusName | None = None
    type: FeedbackTypeName | None = None
    source: FeedbackSourceName | None = None
    path: PathFilter | None = None
    search: Search | None = None
    semantic: Semantic | None = None
    theme: ThemeRef | None = None
    archived: bool = False
    page: Page = 1
    limit: Limit = 20


class FeedbackArguments(ProjectArguments):
    feedback_id: FeedbackRef


class FeedbackCreateArguments(FeedbackCreateBody, kw_only=True, forbid_unknown_fields=True):
    """The REST body of POST /projects/{project_id}/feedback, with the project."""

    project_id: ProjectRef


class FeedbackUpdateArguments(
    FeedbackPatchBody, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """The REST body of PATCH /projects/{project_id}/feedback/{feedback_id}, with the item."""

    project_id: ProjectRef
    feedback_id: FeedbackRef


class RatingListArguments(ProjectArguments):
    type: RatingTypeName = "helpful"
    path: PathFilter | None = None
    page: Page = 1
    limit: Limit = 20


class RatingStatsArguments(ProjectArguments):
    type: RatingTypeName = "helpful"
    path: PathFilter | None = None
    since: Moment | None = None
    until: Until | None = None


class RatingVersionsArguments(ProjectArguments):
    type: RatingTypeName = "helpful"
    path: PathFilter | None = None


class ThemeListArguments(ProjectArguments):
    since: Moment | None = None
    until: Until | None = None


class SimilarFeedbackArguments(FeedbackArguments):
    limit: Annotated[int, msgspec.Meta(ge=1, le=20, description="How many, at most 20.")] = 5


class WorstPagesArguments(ProjectArguments):
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_LIMIT, description="How many pages.")] = 10


class ContactMessageListArguments(ProjectArguments):
    search: Search | None = None
    archived: bool = False
    page: Page = 1
    limit: Limit = 20


def input_schema(arguments: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON schema of a tool's arguments, an object at the root (msgspec puts structs in $defs)."""
    schema = msgspec.json.schema(arguments)
    definitions: dict[str, Any] = schema.pop("$defs", {})
    root = definitions.pop(schema["$ref"].rsplit("/", 1)[-1])
    root.pop("title", None)
    root.pop("description", None)
    root.setdefault("properties", {})
    if not root.get("required"):
        root.pop("required", None)
    if definitions:
        root["$defs"] = definitions
    return dict(root)


SurveyRef = Annotated[str, msgspec.Meta(description="The survey's id (list_surveys).")]


class SurveyListArguments(ProjectArguments):
    status: SurveyStatusName | None = None
    page: Page = 1
    limit: Limit = 20


class SurveyResultsArguments(ProjectArguments):
    survey_id: SurveyRef
    since: Moment | None = None
    until: Until | None = None
    language: Language | None = None


class SurveyCreateArguments(ProjectArguments):
    template: TemplateName
    """nps, csat, ces, pmf or churn_reason: a draft with its questions in en, de and sv."""
    name: SurveyName | None = None


class SurveyStatusArguments(ProjectArguments):
    survey_id: SurveyRef
    status: SurveyStatusName


class IdeaListArguments(ProjectArguments):
    status: IdeaStatusName | None = None
    tag: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    search: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    sort: Literal["top", "new", "trending"] = "top"
    page: Page = 1
    limit: Limit = 20


class IdeaUpdateArguments(ProjectArguments):
    idea_id: Annotated[str, msgspec.Meta(description="The idea's id (list_ideas).")]
    status: IdeaStatusName | msgspec.UnsetType = msgspec.UNSET
    response: Annotated[str, msgspec.Meta(max_length=5000)] | msgspec.UnsetType | None = msgspec.UNSET
    tags: Tags | msgspec.UnsetType = msgspec.UNSET
    title: Title | msgspec.UnsetType = msgspec.UNSET
    pinned: bool | msgspec.UnsetType = msgspec.UNSET


class AlertListArguments(ProjectArguments):
    status: Literal["open", "acknowledged", "resolved"] | None = None
