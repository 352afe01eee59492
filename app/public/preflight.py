"""OPTIONS on the public endpoints (D10): a preflight has no body and so no project; it is answered for
an origin that at least one project allows, and without CORS headers otherwise (the browser then
refuses the POST by itself). Like Litestar's own OPTIONS handlers it stays out of the API document."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, route
from litestar.enums import HttpMethod

from app.public.cors import PREFLIGHT_HEADERS, any_project_allows, record_decision

PUBLIC_PATHS = ["/rating/submit", "/ratings", "/feedback/submit", "/contact/submit"]


@route(
    PUBLIC_PATHS,
    http_method=HttpMethod.OPTIONS,
    status_code=204,
    include_in_schema=False,
)
async def preflight(request: Request[Any, Any, Any]) -> Response[None]:
    header = request.headers.get("origin")
    allowed = header is not None and await any_project_allows(request.scope, header)
    record_decision(request.scope, allowed)
    return Response(None, status_code=204, headers=PREFLIGHT_HEADERS if allowed else None)
