"""Query parameters shared by the project-scoped lists and statistics, with their constraints in OpenAPI."""

from __future__ import annotations

from typing import Annotated

from litestar.params import Parameter

from app.db.models import RatingType

Page = Annotated[int, Parameter(ge=1, description="Page number, starting at 1.")]
Limit = Annotated[int, Parameter(ge=1, le=100, description="Items per page, 1 to 100.")]
PathFilter = Annotated[
    str | None,
    Parameter(
        max_length=2048,
        pattern=r"^/[^\x00-\x1f\x7f]*$",
        description="Only this exact page path (starts with /).",
    ),
]
TypeFilter = Annotated[RatingType, Parameter(description="Rating type: helpful, star or nps.")]
Since = Annotated[
    str | None,
    Parameter(description="Start, inclusive: ISO 8601 date or date-time, UTC unless an offset is given."),
]
Until = Annotated[
    str | None,
    Parameter(
        description="End, exclusive: ISO 8601 date-time; a date means through the end of that day (UTC)."
    ),
]
