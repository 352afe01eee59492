"""The checks of every request, for the ASGI apps mounted in the application (the `mcp` package's OAuth
endpoints; the MCP transport's tool arguments are checked where the server decodes them): Litestar's
before-request hook never sees their requests, yet what they read ends up in the same tables. A query
string or a body (JSON, or a form in either encoding) holding a NUL character, or JSON nested too deep,
is refused as everywhere else: 400 naming the field. These apps take no files, so a multipart body
holding a NUL byte anywhere is refused whole."""

from __future__ import annotations

import msgspec
from litestar.enums import RequestEncodingType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import InvalidRequest
from app.ingest import first_header
from app.request_checks.bodies import is_json_media_type, media_type
from app.request_checks.nesting import refuse_deep_nesting
from app.request_checks.nul_characters import (
    refuse_nul_characters,
    refuse_nul_in_query,
    refuse_nul_in_urlencoded,
)


class CheckedRequests:
    """An ASGI wrapper: the body is read whole, checked, then handed on to the app as sent."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body, more = await _whole_body(receive)
        try:
            refuse_nul_in_query(scope["query_string"])
            _refuse_unfit_body(scope, body)
        except InvalidRequest as refused:
            await _answer(send, refused)
            return
        await self.app(scope, _replaying(body, more, receive), send)


async def _whole_body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The body, and any other message that came instead of its end (a disconnect)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), [message]
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), []


def _replaying(body: bytes, more: list[Message], receive: Receive) -> Receive:
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}, *more]

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay


def _refuse_unfit_body(scope: Scope, body: bytes) -> None:
    content_type = first_header(scope, b"content-type")
    if content_type is None or is_json_media_type(content_type):
        refuse_deep_nesting(body)
        refuse_nul_characters(body)
    elif media_type(content_type) == RequestEncodingType.URL_ENCODED:
        refuse_nul_in_urlencoded(body)
    elif media_type(content_type) == RequestEncodingType.MULTI_PART and b"\x00" in body:
        raise InvalidRequest("body", "must not contain NUL characters")


async def _answer(send: Send, refused: InvalidRequest) -> None:
    body = msgspec.json.encode(refused.body())
    await send(
        {
            "type": "http.response.start",
            "status": refused.status_code,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
