"""Request bodies decoded with JSON types exactly as sent.

Litestar converts handler arguments leniently (msgspec strict=False), so "true" and 1 would pass as a
boolean and "4" as an integer. D6 wants a helpful value to be a JSON boolean and a star value a JSON
integer, so the routes that take ratings decode the raw body once more, strictly. The `data` argument
still declares the body, for OpenAPI and for the first checks.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from litestar import Request

from app.errors import InvalidRequest

T = TypeVar("T")


async def strict_body(request: Request[Any, Any, Any], body_type: type[T]) -> T:
    try:
        return msgspec.json.decode(await request.body(), type=body_type)
    except msgspec.ValidationError as exc:
        rule, _, where = str(exc).partition(" - at `$")
        raise InvalidRequest(where.strip("`.") or "body", rule) from None
