"""Query parameters read as strictly as bodies: a parameter given twice, or `null` for one that takes no
free text, is refused (400 naming it). Litestar's lax reading would take the first of two values and
read `null` as absent, so `?type=null&type=Bug` listed every type while the document says `type` is one
of its enum values."""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin
from urllib.parse import parse_qsl
from weakref import WeakKeyDictionary

from litestar.handlers import HTTPRouteHandler
from litestar.typing import FieldDefinition

from app.errors import InvalidRequest

_declared: WeakKeyDictionary[HTTPRouteHandler, dict[str, FieldDefinition]] = WeakKeyDictionary()
"""Each handler's query fields, worked out on its first query string. Weakly keyed by the handler itself:
an id() would outlive its handler and be handed to the next one (tests make many apps)."""


def refuse_ambiguous_query(handler: HTTPRouteHandler, query_string: bytes) -> None:
    if not query_string:
        return
    fields = _declared.get(handler)
    if fields is None:
        fields = _declared[handler] = _query_fields(handler)
    seen: set[str] = set()
    for name, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        field = fields.get(name)
        if field is None or field.is_non_string_sequence:
            continue
        if name in seen:
            raise InvalidRequest(name, "must be given at most once")
        seen.add(name)
        if value == "null" and not _takes_text(field.annotation):
            raise InvalidRequest(name, "must be one of its values or left out, not null")


def _query_fields(handler: HTTPRouteHandler) -> dict[str, FieldDefinition]:
    """The handler's parameters and its dependencies' (a filter object's fields, say)."""
    fields = dict(handler.parsed_fn_signature.parameters)
    for provider in handler.resolve_dependencies().values():
        signature = getattr(provider, "parsed_fn_signature", None)
        if signature is not None:
            fields.update(signature.parameters)
    return fields


def _takes_text(annotation: Any) -> bool:
    if annotation is str:
        return True
    if get_origin(annotation) is Annotated:
        return _takes_text(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return any(_takes_text(arg) for arg in get_args(annotation))
    return False
