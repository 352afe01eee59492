"""JSON bodies must be sent as JSON: a route that reads a JSON body answers 415 to any other declared
Content-Type. A request without a Content-Type is read as JSON, so minimal server-to-server
clients keep working; form-reading routes (the console) are not affected. Before any handler sees them,
JSON bodies are checked for NUL characters, deep nesting and values only a lax reading accepts, and forms
(in every encoding the framework parses) and query strings for NUL characters; query parameters are
read strictly (query_params.py)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.enums import RequestEncodingType
from litestar.handlers import BaseRouteHandler
from litestar.params import BodyKwarg
from litestar.utils.scope.state import ScopeState

from app.errors import UnsupportedMediaType
from app.ingest import first_header
from app.request_checks.nesting import refuse_deep_nesting
from app.request_checks.nul_characters import refuse_nul_characters, refuse_nul_in_form, refuse_nul_in_query
from app.request_checks.query_params import refuse_ambiguous_query
from app.request_checks.strict_body import STRICT_READING, refuse_lax_values

FORM_MEDIA_TYPES = frozenset({RequestEncodingType.URL_ENCODED.value, RequestEncodingType.MULTI_PART.value})
TEXT_PLAIN_JSON = "text_plain_json"
"""Route opt: text/plain is read as JSON too (the public endpoints: navigator.sendBeacon and
preflight-free fetch() send JSON that way)."""


def reads_json_body(handler: BaseRouteHandler) -> bool:
    data = handler.parsed_data_field
    if data is None:
        return False
    body = data.kwarg_definition
    return not isinstance(body, BodyKwarg) or body.media_type == RequestEncodingType.JSON


def is_json_media_type(content_type: str) -> bool:
    declared = media_type(content_type)
    return declared == "application/json" or (
        declared.startswith("application/") and declared.endswith("+json")
    )


async def check_request_body(request: Request[Any, Any, Any]) -> None:
    """A before-request hook, not a guard: Litestar calls guards with a copy of the handler, which costs
    more than the check itself on the hottest paths (which is also why it reads the raw header)."""
    scope = request.scope
    handler = scope["route_handler"]
    query_string = scope["query_string"]
    if query_string:
        refuse_nul_in_query(query_string)
        if scope["method"] != "OPTIONS":  # Litestar's own OPTIONS answer reads no parameter
            refuse_ambiguous_query(handler, query_string)
    content_type = first_header(scope, b"content-type")
    body_type = _body_type(handler)
    if body_type is not None:
        if content_type is not None and not _read_as_json(content_type, handler):
            raise UnsupportedMediaType(f"Content-Type: must be application/json, got {content_type!r:.60}")
        body = await request.body()
        refuse_deep_nesting(body)
        refuse_nul_characters(body)
        strict = refuse_lax_values(body, body_type)
        if strict is not None:
            scope[STRICT_READING] = strict  # type: ignore[literal-required]
            # Litestar reads the handler's `data` from its cached JSON: given the strict reading (a value
            # of the body type, which its conversion passes through), it neither decodes nor converts the
            # body again.
            ScopeState.from_scope(scope).json = strict[1]
    elif content_type is not None and media_type(content_type) in FORM_MEDIA_TYPES:
        refuse_nul_in_form(await request.form())


def _body_type(handler: BaseRouteHandler) -> Any:
    return handler.parsed_data_field.annotation if reads_json_body(handler) else None  # type: ignore[union-attr]


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _read_as_json(content_type: str, handler: BaseRouteHandler) -> bool:
    if is_json_media_type(content_type):
        return True
    plain = media_type(content_type) == "text/plain"
    return plain and bool(handler.opt.get(TEXT_PLAIN_JSON))
