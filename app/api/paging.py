"""The page and limit query parameters every list takes: out of range is 400, never clamped.

Pages stop at a billion so that the row offset always fits the databases' 64-bit integers.
"""

from __future__ import annotations

from typing import Annotated

from litestar.params import Parameter

MAX_PAGE = 1_000_000_000

Page = Annotated[int, Parameter(ge=1, le=MAX_PAGE, description="1-indexed page.")]
Limit = Annotated[int, Parameter(ge=1, le=100, description="Items per page, at most 100.")]
