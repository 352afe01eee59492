"""JSON written inside another encoding (a field of a multipart form): held to every JSON body's rules
under the field's name before it is decoded, so that a form cannot carry what the same field of a JSON body
could not (nesting the decoder cannot follow, NUL characters)."""

from __future__ import annotations

from typing import Any

import msgspec

from app.errors import InvalidRequest
from app.request_checks.nesting import refuse_deep_nesting
from app.request_checks.nul_characters import refuse_nul_characters


def json_field(name: str, text: str) -> Any:
    raw = text.encode()
    refuse_deep_nesting(raw, name)
    refuse_nul_characters(raw, name)
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError:
        raise InvalidRequest(name, "must be written as JSON, as this field is in a JSON body") from None
