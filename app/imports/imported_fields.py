"""Upstream values fitted to the rules every feedback item keeps (message length, path shape,
submitted_by characters, metadata value length): an import never stores what the API would refuse."""

from __future__ import annotations

import re
from typing import Any

MESSAGE_MAX = 5000
METADATA_TEXT_MAX = 500
PATH_PATTERN = re.compile(r"^/[^\x00-\x1f\x7f]{0,2047}$")
SUBMITTED_BY_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,255}$")


def message_text(value: object) -> str | None:
    """A non-blank message cut to the longest a feedback item holds, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()[:MESSAGE_MAX]


def page_path(value: object) -> str | None:
    return value if isinstance(value, str) and PATH_PATTERN.match(value) else None


def submitter(value: object) -> str | None:
    return value if isinstance(value, str) and SUBMITTED_BY_PATTERN.match(value) else None


def metadata_of(values: dict[str, Any]) -> dict[str, str | int | float | bool] | None:
    """The present scalar values, texts cut to the metadata limit; None when nothing is left."""
    kept: dict[str, str | int | float | bool] = {}
    for key, value in values.items():
        if isinstance(value, str) and value:
            kept[key] = value[:METADATA_TEXT_MAX]
        elif isinstance(value, bool | int | float):
            kept[key] = value
    return kept or None
