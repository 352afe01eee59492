"""The page and limit query parameters every list takes (D5): out of range is 400, never clamped."""

from __future__ import annotations

from typing import Annotated

from litestar.params import Parameter

Page = Annotated[int, Parameter(ge=1, description="1-indexed page.")]
Limit = Annotated[int, Parameter(ge=1, le=100, description="Items per page, at most 100.")]
