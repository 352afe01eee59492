"""What a list of resources is asked for with: the query parameters of a GET, or the SearchRequest body
of a POST to `.search` (RFC 7644, section 3.4.3), read into one shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.scim.errors import ScimError

SEARCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:SearchRequest"


@dataclass(frozen=True)
class Search:
    filter: str | None = None
    start_index: int | None = None
    count: int | None = None
    attributes: str | None = None
    """Comma-separated, as the query parameter spells it."""
    excluded: str | None = None


def search_request(body: Any) -> Search:
    if not isinstance(body, dict):
        raise ScimError("invalidSyntax", "body: a SearchRequest object is required")
    return Search(
        filter=_optional(body, "filter", str),
        start_index=_optional(body, "startIndex", int),
        count=_optional(body, "count", int),
        attributes=_names(body, "attributes"),
        excluded=_names(body, "excludedAttributes"),
    )


def _optional(body: dict[str, Any], name: str, kind: type) -> Any:
    value = body.get(name)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ScimError("invalidValue", f"{name}: must be a {'string' if kind is str else 'number'}")
    return value


def _names(body: dict[str, Any], name: str) -> str | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ScimError("invalidValue", f"{name}: must be a list of attribute names")
    return ",".join(value)
