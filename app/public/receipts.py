"""A public submit's answer on success, encoded straight into an ASGI answer.

Litestar's way from a returned Struct to the bytes sent (a Response built, its serializer resolved, then
rendered) costs more on the hot submit paths than the encoding itself; the middleware (CORS, the request
id, metrics) still wraps this answer. The route declares the body's type in `responses`, so the OpenAPI
document still shows it (`documented`).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.enums import MediaType
from litestar.openapi.datastructures import ResponseSpec
from litestar.response.base import ASGIResponse

_encode = msgspec.json.Encoder().encode


def receipt(body: msgspec.Struct, status_code: int) -> ASGIResponse:
    return ASGIResponse(body=_encode(body), status_code=status_code, media_type=MediaType.JSON)


def documented(body_type: type[msgspec.Struct], status_code: int, description: str) -> dict[int, Any]:
    """The `responses` entry of a route answering `receipt(body_type(...), status_code)`."""
    return {status_code: ResponseSpec(data_container=body_type, description=description)}
