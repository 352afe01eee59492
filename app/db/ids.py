"""Row ids as paths and bodies carry them: a UUID, or a 400 that names the field."""

from __future__ import annotations

from uuid import UUID

from app.errors import InvalidRequest


def parse_uuid(value: str, field: str) -> UUID:
    try:
        return UUID(value)
    except (ValueError, AttributeError, TypeError):
        raise InvalidRequest(field, f"must be a UUID, got {value!r:.60}") from None
