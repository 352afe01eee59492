"""A second, strict reading of a JSON body that Litestar has already decoded (rating bodies, public and API).

Litestar converts request data in lax mode, which reads `1` as `true` and `"5"` as 5; a rating's JSON
boolean must be a boolean and its number a number. The handlers keep declaring their body type (so
Litestar documents it and reports most mistakes), and read the cached raw body once more with a strict
decoder built once per type.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec
from litestar import Request

from app.errors import InvalidRequest

T = TypeVar("T")
_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}
_LOCATION = re.compile(r"^(?P<rule>.*) - at `\$\.?(?P<field>[^`]*)`$")


async def strict_body(request: Request[Any, Any, Any], lax: T) -> T:
    body_type = type(lax)
    decoder = _decoders.get(body_type)
    if decoder is None:
        decoder = _decoders[body_type] = msgspec.json.Decoder(body_type, strict=True)
    try:
        decoded: T = decoder.decode(await request.body())
    except msgspec.ValidationError as exc:
        raise _invalid(str(exc)) from None
    return decoded


def _invalid(message: str) -> InvalidRequest:
    match = _LOCATION.match(message)
    if match is None:
        return InvalidRequest("body", message)
    return InvalidRequest(match["field"].replace("[", ".").replace("]", "") or "body", match["rule"])
