"""Field rules shared by every body that carries them.

Declared as msgspec constraints so that decoding enforces them and the OpenAPI document shows them.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

Path = Annotated[
    str,
    msgspec.Meta(
        max_length=2048,
        pattern=r"^/[^\x00-\x1f\x7f]*$",
        description="URL path: starts with /, at most 2048 characters, no control characters.",
    ),
]
Version = Annotated[str, msgspec.Meta(max_length=100, description="Application or content version.")]
SubmittedBy = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=255,
        pattern=r"^[a-zA-Z0-9_-]+$",
        description="User identifier: letters, digits, hyphen, underscore; no personal data.",
    ),
]
MetadataKey = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
MetadataValue = Annotated[str, msgspec.Meta(max_length=500)] | int | float | bool | None
Metadata = Annotated[
    dict[MetadataKey, MetadataValue],
    msgspec.Meta(max_length=20, description="Custom key-value data: at most 20 keys."),
]
MaxStars = Annotated[int, msgspec.Meta(ge=1, le=10)]
FeedbackMessage = Annotated[str, msgspec.Meta(min_length=1, max_length=5000)]
PublicFeedbackMessage = Annotated[str, msgspec.Meta(min_length=3, max_length=5000)]
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
