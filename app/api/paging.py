"""The page and limit query parameters every list takes: out of range is 400, never clamped. The caps are
app.db.paging's, which the console's lists use too."""

from __future__ import annotations

from typing import Annotated

from litestar.params import Parameter

from app.db.paging import MAX_LIMIT, MAX_PAGE

Page = Annotated[int, Parameter(ge=1, le=MAX_PAGE, description="1-indexed page.")]
Limit = Annotated[int, Parameter(ge=1, le=MAX_LIMIT, description=f"Items per page, at most {MAX_LIMIT}.")]
