"""What the public endpoints answer on success; errors are the usual `{error, details}` bodies."""

from __future__ import annotations

from typing import Literal

import msgspec


class TypedRatingReceipt(msgspec.Struct):
    """POST /ratings (public): 201."""

    id: str
    rating_type: str


class StoredReceipt(msgspec.Struct):
    """POST /feedback/submit and /contact/submit (public): 200."""

    status: Literal["stored"] = "stored"
