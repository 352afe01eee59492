"""NUL characters are refused in JSON and form bodies and in query strings: PostgreSQL can neither store
nor compare them in text, and no field needs one.

JSON can carry NUL only as the escape \\u0000. A body without that escape is passed at the cost of one
bytes search; one with it is decoded generically to name the first field holding a NUL, so the client
gets a 400 naming the field instead of a failed write. The search can also match an escaped backslash
followed by "u0000" (a harmless text): the walk finds no NUL then, and the body passes.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import msgspec
from litestar.datastructures import FormMultiDict

from app.errors import InvalidRequest

_ESCAPE = b"\\u0000"


def refuse_nul_characters(body: bytes, within: str = "") -> None:
    """`within` names a JSON text held inside another encoding (a form field): the fields found in it are
    named below it."""
    if _ESCAPE not in body:
        return
    try:
        document = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return  # malformed: the body's own decoding answers that
    refuse_nul_in_document(document, within)


def refuse_nul_in_document(document: Any, within: str = "") -> None:
    """The same for JSON another library has decoded (the arguments of an MCP tool call)."""
    field = _field_with_nul(document, within)
    if field is not None:
        raise InvalidRequest(field or "body", "must not contain NUL characters (\\u0000)")


def _field_with_nul(value: Any, where: str) -> str | None:
    if isinstance(value, str):
        return where if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            name = f"{where}.{key}" if where else str(key)
            if "\x00" in key:
                return name
            found = _field_with_nul(item, name)
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _field_with_nul(item, f"{where}.{index}" if where else str(index))
            if found is not None:
                return found
    return None


def refuse_nul_in_form(form: FormMultiDict) -> None:
    """The same for a form as the framework parsed it (URL-encoded or multipart: the console's routes read
    either). Uploaded files are bytes, not text, and may hold anything."""
    for name, value in form.multi_items():
        if "\x00" in name or (isinstance(value, str) and "\x00" in value):
            raise InvalidRequest(name.replace("\x00", "") or "body", "must not contain NUL characters")


def refuse_nul_in_query(query_string: bytes) -> None:
    """A query string carries NUL only percent-encoded; one bytes search passes every other."""
    if b"%00" in query_string:
        _refuse_nul_in_pairs(query_string, "query")


def refuse_nul_in_urlencoded(body: bytes) -> None:
    """A URL-encoded form read raw (where the framework does not parse it): percent-encoded or as sent."""
    if b"%00" in body or b"\x00" in body:
        _refuse_nul_in_pairs(body, "body")


def _refuse_nul_in_pairs(encoded: bytes, whole: str) -> None:
    for name, value in parse_qsl(encoded.decode("latin-1"), keep_blank_values=True):
        if "\x00" in name or "\x00" in value:
            raise InvalidRequest(name.replace("\x00", "") or whole, "must not contain NUL characters")
