"""The rules of the fields that many layers share, defined once: the columns are sized from them, the
request bodies and query filters enforce them, imports fit upstream values to them, and the console
checks its filters with them."""

from __future__ import annotations

import re
from typing import Any, Literal

PATH_MAX_LENGTH = 2048
PATH_PATTERN = r"^/[^\x00-\x1f\x7f]*$"
"""A URL path: starts with /, no control characters."""
VERSION_MAX_LENGTH = 100
SUBMITTED_BY_MAX_LENGTH = 255
SUBMITTED_BY_PATTERN = r"^[a-zA-Z0-9_-]+$"
"""A user identifier: letters, digits, hyphen, underscore; no personal data."""
MESSAGE_MAX_LENGTH = 5000
METADATA_TEXT_MAX_LENGTH = 500

_PATH = re.compile(PATH_PATTERN)
_SUBMITTED_BY = re.compile(SUBMITTED_BY_PATTERN)


def is_page_path(value: str) -> bool:
    return len(value) <= PATH_MAX_LENGTH and _PATH.match(value) is not None


def is_submitter(value: str) -> bool:
    return 0 < len(value) <= SUBMITTED_BY_MAX_LENGTH and _SUBMITTED_BY.match(value) is not None


def literal_of(vocabulary: Any) -> Any:
    """A StrEnum's values as a Literal type, for bodies and parameters: the enum stays the one definition
    and the API documents and checks the same words."""
    return Literal[tuple(member.value for member in vocabulary)]  # type: ignore[valid-type]
