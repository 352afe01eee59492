"""Field rules shared by every body that carries them.

Declared as msgspec constraints so that decoding enforces them and the OpenAPI document shows them.
"""

from __future__ import annotations

import re
from typing import Annotated

import msgspec

from app.db.models.field_rules import (
    MESSAGE_MAX_LENGTH,
    METADATA_TEXT_MAX_LENGTH,
    PATH_MAX_LENGTH,
    PATH_PATTERN,
    SUBMITTED_BY_MAX_LENGTH,
    SUBMITTED_BY_PATTERN,
    VERSION_MAX_LENGTH,
)

Path = Annotated[
    str,
    msgspec.Meta(
        max_length=PATH_MAX_LENGTH,
        pattern=PATH_PATTERN,
        description=f"URL path: starts with /, at most {PATH_MAX_LENGTH} characters, no control characters.",
    ),
]
Version = Annotated[
    str, msgspec.Meta(max_length=VERSION_MAX_LENGTH, description="Application or content version.")
]
SubmittedBy = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=SUBMITTED_BY_MAX_LENGTH,
        pattern=SUBMITTED_BY_PATTERN,
        description="User identifier: letters, digits, hyphen, underscore; no personal data.",
    ),
]
UserSignature = Annotated[
    str,
    msgspec.Meta(
        max_length=128,
        description="Your backend's signature of submitted_by: the lower-case hex HMAC-SHA256 of the id "
        "(UTF-8), keyed by the project's identity secret (the whole `ids_...` string, UTF-8). With a match "
        "the stored item is submitted_by_verified; a project that accepts only verified users refuses a "
        "named user without one (403).",
    ),
]
UserToken = Annotated[
    str,
    msgspec.Meta(
        max_length=4096,
        description="The person as a JWT signed HS256 with the project's identity secret (claims sub, exp, "
        "optionally email and name), instead of submitted_by and user_signature: the item is then "
        "submitted by sub, verified. A token that does not verify identifies nobody; a project that "
        "accepts only verified users refuses it (403).",
    ),
]
MetadataKey = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
MetadataValue = Annotated[str, msgspec.Meta(max_length=METADATA_TEXT_MAX_LENGTH)] | int | float | bool | None
METADATA_SCHEMA = {
    "max_properties": 20,
    "property_names": {"type": "string", "minLength": 1, "maxLength": 64},
    "additional_properties": {
        "anyOf": [
            {"type": "string", "maxLength": METADATA_TEXT_MAX_LENGTH},
            {"type": "number"},
            {"type": "boolean"},
            {"type": "null"},
        ]
    },
}
"""The same rules for the OpenAPI document, which does not derive them from the dict's key and value types."""
Metadata = Annotated[
    dict[MetadataKey, MetadataValue],
    msgspec.Meta(
        max_length=20,
        description="Custom key-value data: at most 20 keys of 1 to 64 characters; values are strings of at "
        "most 500 characters, numbers, booleans or null.",
        extra_json_schema={"extra": METADATA_SCHEMA},
    ),
]
MaxStars = Annotated[int, msgspec.Meta(ge=1, le=10)]
FeedbackMessage = Annotated[str, msgspec.Meta(min_length=1, max_length=MESSAGE_MAX_LENGTH)]
PublicFeedbackMessage = Annotated[str, msgspec.Meta(min_length=3, max_length=MESSAGE_MAX_LENGTH)]
ONE_LINE = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
"""The characters no name or label may hold (as a regular expression class): control characters (C0,
DEL, C1) and the Unicode line and paragraph separators. A name travels into mail subjects, log lines and
exported cells, where a line break would start a header or a record of its own."""
LABEL_PATTERN = rf"^[^{ONE_LINE}]*$(?!\n)"
NAME_PATTERN = rf"^[^{ONE_LINE}]*[^{ONE_LINE}\s][^{ONE_LINE}]*$(?!\n)"
"""One line, not only spaces. (`(?!\\n)` stops `$` from accepting a trailing newline.)"""
NOT_ONE_LINE = "must be one line without control characters"
_LABEL = re.compile(LABEL_PATTERN)


def is_one_line(text: str) -> bool:
    """True for a name or label without control characters or line breaks of any kind."""
    return _LABEL.match(text) is not None


ContactName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        pattern=LABEL_PATTERN,
        description="One line, without control characters.",
    ),
]
EMAIL_PATTERN = r"^[\w.!#$%'*+/=^`{|}~-]+@(?:[\w-]+\.)+[\w-]+$(?!\n)"
"""An address as people type it: no spaces, quotes, brackets, `?` or `&`, so it can never carry a mailto
query (`?bcc=`) or header text. `(?!\n)` stops `$` from accepting a trailing newline."""
ContactEmail = Annotated[
    str,
    msgspec.Meta(
        max_length=320,
        pattern=EMAIL_PATTERN,
        description="An email address: name@example.com, without spaces, `?` or `&`.",
    ),
]
ContactSubject = Annotated[
    str,
    msgspec.Meta(max_length=200, pattern=LABEL_PATTERN, description="One line, without control characters."),
]
ContactMessageText = Annotated[str, msgspec.Meta(min_length=3, max_length=2000)]
Honeypot = Annotated[
    str,
    msgspec.Meta(
        description="Leave empty. Hidden from people by the widget; a body that fills it is answered like "
        "any other but stored as spam.",
    ),
]
ElapsedMs = Annotated[
    int,
    msgspec.Meta(
        le=2**31 - 1,
        description="Milliseconds from opening the form to sending it, as the widget measured them; under "
        "2000 (a negative time too) the submission is answered like any other but stored as spam. Leave "
        "out when unknown.",
    ),
]
