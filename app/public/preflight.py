"""OPTIONS on the public endpoints: a preflight has no body and so no project; it is answered for an
origin that at least one project allows, and without CORS headers otherwise (the browser then refuses
the POST by itself). Like Litestar's own OPTIONS handlers it stays out of the API document, and
like them it lists the path's methods in `Allow`."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, route
from litestar.enums import HttpMethod

from app.ingest import first_header
from app.public.cors import PREFLIGHT_HEADERS
from app.public.paths import PUBLIC_PATHS
from app.state import ingest_of

ALLOW = {"Allow": "OPTIONS, POST"}
"""What every public path answers to, as a 405 on it says too."""


@route(
    list(PUBLIC_PATHS),
    http_method=HttpMethod.OPTIONS,
    status_code=204,
    include_in_schema=False,
)
async def preflight(request: Request[Any, Any, Any]) -> Response[None]:
    allowed = await ingest_of(request.scope).preflight(request.scope, first_header(request.scope, b"origin"))
    return Response(None, status_code=204, headers={**ALLOW, **(PREFLIGHT_HEADERS if allowed else {})})
