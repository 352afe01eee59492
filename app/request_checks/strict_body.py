"""A strict reading of JSON bodies (ratings, public and API, and every body before Litestar reads it).

Litestar converts request data in lax mode, which reads `1` as `true` and `"5"` as 5; a JSON boolean
must be a boolean and a number a number. A number without a fraction (`4.0`) is an integer, as JSON
Schema and the OpenAPI document read it. The rating handlers keep declaring their body type (so Litestar
documents it and reports most mistakes), and take the strict reading with `strict_body`: the
before-request check has already made it once for the declared body type and kept it in the scope, so
the hot public paths decode each body strictly once: with a typed decoder when the body is right as sent,
through a generic reading only when it is not (a whole number written `4.0`, a mistake to word). Litestar
is handed the same reading for the handler's `data` (check_request_body), so it does not decode the body
a second time either.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

import msgspec
from litestar import Request

from app.errors import InvalidRequest, msgspec_violation

T = TypeVar("T")
STRICT_READING = "hearken.strict_body"
"""Scope key: (body type, the body read strictly as that type), set by the before-request check."""


async def strict_body(request: Request[Any, Any, Any], lax: T) -> T:
    kept = request.scope.get(STRICT_READING)  # type: ignore[call-overload]
    if kept is not None and kept[0] is type(lax):
        return kept[1]  # type: ignore[no-any-return]
    try:
        decoded: T = _strict(msgspec.json.decode(await request.body()), type(lax))
    except msgspec.ValidationError as exc:
        raise _invalid(exc) from None
    return decoded


def refuse_lax_values(body: bytes, body_type: Any) -> tuple[Any, Any] | None:
    """Every JSON body, before Litestar reads it: a value that only the lax reading accepts (`0` for
    false, `"5"` for 5) is refused with the strict reading's words; anything else is left to Litestar,
    which words the other mistakes. Answers (body type, strict reading) when the strict reading succeeded,
    for `strict_body` to reuse."""
    try:
        return body_type, _typed_decoder(body_type).decode(body)
    except (msgspec.DecodeError, TypeError):  # not as sent, or not a type msgspec reads: read it again
        pass
    try:
        parsed = msgspec.json.decode(body)
    except msgspec.DecodeError:  # not JSON: Litestar says so
        return None
    try:
        return body_type, _strict(parsed, body_type)
    except msgspec.ValidationError as strict:
        try:
            msgspec.convert(parsed, body_type, strict=False)
        except msgspec.ValidationError:
            return None
        raise _invalid(strict) from None
    except TypeError:  # not a type msgspec reads (a DTO's, say): Litestar's own reading decides
        return None


@lru_cache(maxsize=256)
def _typed_decoder(body_type: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(body_type, strict=True)


def _strict(parsed: Any, body_type: Any) -> Any:
    return msgspec.convert(_whole_numbers(parsed), body_type, strict=True)


def _whole_numbers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


def _invalid(exc: msgspec.ValidationError) -> InvalidRequest:
    rule, field = msgspec_violation(exc)
    return InvalidRequest((field or "").replace("[", ".").replace("]", "") or "body", rule)
