"""Query parameters of the rating lists and statistics, with their constraints in OpenAPI
(page and limit are in app.api.paging, shared by every list)."""

from __future__ import annotations

from typing import Annotated

from litestar.openapi.spec import OpenAPIFormat, OpenAPIType, Schema
from litestar.params import Parameter

from app.db.models import RatingType
from app.db.models.field_rules import PATH_MAX_LENGTH, PATH_PATTERN

PathFilter = Annotated[
    str | None,
    Parameter(
        max_length=PATH_MAX_LENGTH,
        pattern=PATH_PATTERN,
        description="Only this exact page path (starts with /).",
    ),
]
TypeFilter = Annotated[RatingType, Parameter(description="Rating type: helpful, star or nps.")]
DATE_OR_DATE_TIME = {
    "any_of": [
        Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.DATE),
        Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.DATE_TIME),
    ]
}
Since = Annotated[
    str | None,
    Parameter(
        description="Start, inclusive: ISO 8601 date or date-time, UTC unless an offset is given.",
        schema_extra=DATE_OR_DATE_TIME,
    ),
]
Until = Annotated[
    str | None,
    Parameter(
        description="End, exclusive: ISO 8601 date-time; a date means through the end of that day (UTC). "
        "Earlier than since is refused (400).",
        schema_extra=DATE_OR_DATE_TIME,
    ),
]
Purge = Annotated[
    bool,
    Parameter(
        description="true deletes for good (the row, its history, its counts) instead of archiving; "
        "a purged id is then 404."
    ),
]
VerifiedFilter = Annotated[
    bool | None,
    Parameter(
        description="true: only submissions whose submitted_by came with a valid signature (see the "
        "project's identity secret); false: only the others."
    ),
]
SpamFilter = Annotated[
    bool,
    Parameter(
        description="true lists only what was judged spam (a filled honeypot, a form sent faster than a "
        "person could), which no other list, count or statistic includes."
    ),
]
