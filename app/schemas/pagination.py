"""The pagination object of every list."""

from __future__ import annotations

import math

import msgspec


class Pagination(msgspec.Struct):
    page: int
    limit: int
    total: int
    total_pages: int

    @classmethod
    def of(cls, *, page: int, limit: int, total: int) -> Pagination:
        return cls(page=page, limit=limit, total=total, total_pages=math.ceil(total / limit) if total else 0)
