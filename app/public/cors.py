"""CORS for the public endpoints: which origin may read an answer, on every answer.

The gate decides for a request whose project it found (that project's allowed_origins) and records
the decision in the scope; any other answer (a body refused with 400 or 413, an unknown project, a
preflight) is readable by an origin that at least one project allows, so the widget can show the error.
`Vary: Origin` is on every answer, because the answer depends on it.
"""

from __future__ import annotations

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from app.ingest import first_header
from app.state import ingest_of

PREFLIGHT_HEADERS = {
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type",
    "Access-Control-Max-Age": "600",
}


def public_cors(app: ASGIApp) -> ASGIApp:
    """The public router's middleware. A plain ASGI wrapper that works on the raw header lists: this
    runs on every public request, the hottest path there is, and Litestar's middleware classes add a
    layer of bookkeeping (scopes, exclusions) that it does not need."""

    async def with_cors(scope: Scope, receive: Receive, send: Send) -> None:
        header = first_header(scope, b"origin")

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.append((b"vary", b"Origin"))  # type: ignore[attr-defined]
                if header is not None and await ingest_of(scope).origin_may_read(scope, header):
                    allowed = (b"access-control-allow-origin", header.encode("latin-1"))
                    headers.append(allowed)  # type: ignore[attr-defined]
            await send(message)

        await app(scope, receive, send_with_cors)

    return with_cors
