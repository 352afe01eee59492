"""Lists are paged one way: ordered newest first with the id as tie-breaker (stable between pages), cut
to a page by advanced-alchemy's LimitOffset, under one cap on pages and page sizes that the API and the
console share. Pages stop at a billion so that the row offset always fits the databases' 64-bit
integers."""

from __future__ import annotations

from typing import Any, TypeVar

from advanced_alchemy.filters import LimitOffset
from sqlalchemy import Select
from sqlalchemy.orm import InstrumentedAttribute

MAX_PAGE = 1_000_000_000
MAX_LIMIT = 100

S = TypeVar("S", bound=Select[Any])


def one_page(statement: S, model: Any, page: int, limit: int, *order: Any) -> S:
    """`statement` in `order` (by default the model's newest first), rows `page` of `limit` each."""
    created_at: InstrumentedAttribute[Any] = model.created_at
    ordered = statement.order_by(*(order or (created_at.desc(), model.id.desc())))
    return LimitOffset(limit=limit, offset=(page - 1) * limit).append_to_statement(ordered, model)
