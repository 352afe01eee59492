"""Field rules shared by every body that carries them.

Declared as msgspec constraints so that decoding enforces them and the OpenAPI document shows them.
"""

from __future__ import annotations

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
ContactName = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
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
ContactSubject = Annotated[str, msgspec.Meta(max_length=200)]
ContactMessageText = Annotated[str, msgspec.Meta(min_length=3, max_length=2000)]
Honeypot = Annotated[
    str,
    msgspec.Meta(
        description="Leave empty. Hidden from people by the widget; a body that fills it is not stored."
    ),
]
