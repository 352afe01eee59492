"""SCIM answers: `application/scim+json` bodies, list responses and the paging they carry."""

from __future__ import annotations

from typing import Any

from litestar import Response

from app.scim.errors import SCIM_MEDIA_TYPE

LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
MAX_COUNT = 200
"""The most resources one list answer holds, whatever `count` asks for (ServiceProviderConfig says so)."""


def scim_response(body: dict[str, Any], status_code: int = 200, location: str | None = None) -> Response[Any]:
    headers = {"Location": location} if location else None
    return Response(body, status_code=status_code, media_type=SCIM_MEDIA_TYPE, headers=headers)


def page_bounds(start_index: int | None, count: int | None) -> tuple[int, int]:
    """SCIM pages are 1-based: a `startIndex` below 1 is 1, a negative `count` is 0 (RFC 7644, 3.4.2.4)."""
    start = max(1, start_index or 1)
    limit = MAX_COUNT if count is None else min(max(0, count), MAX_COUNT)
    return start, limit


ALWAYS_RETURNED = frozenset({"schemas", "id", "meta"})


def projected(resource: dict[str, Any], attributes: str | None, excluded: str | None) -> dict[str, Any]:
    """`attributes` (only these) or `excludedAttributes` (all but these), by top-level attribute: a
    sub-attribute such as `name.givenName` keeps or drops its whole attribute. `id` and `schemas` stay."""
    wanted, unwanted = _names(attributes), _names(excluded)
    return {
        key: value
        for key, value in resource.items()
        if key in ALWAYS_RETURNED or ((not wanted or key.lower() in wanted) and key.lower() not in unwanted)
    }


def _names(text: str | None) -> set[str]:
    names = set()
    for name in (text or "").split(","):
        name = name.strip().lower()
        if ":" in name:  # a URN-qualified name: urn:...:User:userName
            name = name.rsplit(":", 1)[1]
        if name:
            names.add(name.split(".", 1)[0])
    return names


def list_response(resources: list[dict[str, Any]], total: int, start: int) -> Response[Any]:
    return scim_response(
        {
            "schemas": [LIST_SCHEMA],
            "totalResults": total,
            "startIndex": start,
            "itemsPerPage": len(resources),
            "Resources": resources,
        }
    )
