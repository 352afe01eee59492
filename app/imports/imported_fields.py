"""Upstream values fitted to the rules every feedback item keeps (message length, path shape,
submitted_by characters, metadata value length): an import never stores what the API would refuse."""

from __future__ import annotations

from typing import Any

from app.db.models.field_rules import MESSAGE_MAX_LENGTH, METADATA_TEXT_MAX_LENGTH, is_page_path, is_submitter


def message_text(value: object) -> str | None:
    """A non-blank message cut to the longest a feedback item holds, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()[:MESSAGE_MAX_LENGTH]


def page_path(value: object) -> str | None:
    return value if isinstance(value, str) and is_page_path(value) else None


def submitter(value: object) -> str | None:
    return value if isinstance(value, str) and is_submitter(value) else None


def metadata_of(values: dict[str, Any]) -> dict[str, str | int | float | bool] | None:
    """The present scalar values, texts cut to the metadata limit; None when nothing is left."""
    kept: dict[str, str | int | float | bool] = {}
    for key, value in values.items():
        if isinstance(value, str) and value:
            kept[key] = value[:METADATA_TEXT_MAX_LENGTH]
        elif isinstance(value, bool | int | float):
            kept[key] = value
    return kept or None
