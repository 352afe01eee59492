"""Filters read from a console list's query string, and links to its other pages that keep them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from app.db.paging import MAX_PAGE
from app.errors import InvalidRequest
from app.schemas.pagination import Pagination

PAGE_SIZE = 20


def choice(value: str | None, allowed: Iterable[str], field: str) -> str | None:
    """An empty select option means "any"; anything outside the allowed values is a 400 naming it."""
    if not value:
        return None
    options = list(allowed)
    if value not in options:
        raise InvalidRequest(field, f"must be one of {', '.join(options)}")
    return value


def page_number(value: str | None) -> int:
    try:
        page = int(value or 1)
    except ValueError:
        raise InvalidRequest("page", "must be a whole number from 1") from None
    if not 1 <= page <= MAX_PAGE:
        raise InvalidRequest("page", "must be a whole number from 1")
    return page


@dataclass(frozen=True)
class Pages:
    pagination: Pagination
    base: str
    query: Mapping[str, str]

    def url(self, page: int) -> str:
        query = self.query_for(page)
        return f"{self.base}?{query}" if query else self.base

    def query_for(self, page: int) -> str:
        params = {k: v for k, v in self.query.items() if v and k != "page"}
        if page > 1:
            params["page"] = str(page)
        return urlencode(params)

    @property
    def query_string(self) -> str:
        """The filters and page of this list, to come back to it after a change."""
        return self.query_for(self.pagination.page)

    @property
    def previous(self) -> str | None:
        return self.url(self.pagination.page - 1) if self.pagination.page > 1 else None

    @property
    def next(self) -> str | None:
        return (
            self.url(self.pagination.page + 1) if self.pagination.page < self.pagination.total_pages else None
        )
