"""`Allow` on Litestar's own OPTIONS answers lists every method of the path.

Litestar builds that answer when the first handler of a path is registered and keeps it when a controller
adds more handlers to the same path, so `OPTIONS /feedback` said `OPTIONS, POST` while GET is there too.
This before-send hook writes the methods of the route that was matched (the same list a 405 gives).
"""

from __future__ import annotations

from litestar.routes import HTTPRoute
from litestar.types import Message, Scope


async def allow_every_method(message: Message, scope: Scope) -> None:
    if message["type"] != "http.response.start" or scope.get("method") != "OPTIONS":
        return
    handler = scope.get("route_handler")
    if handler is None or handler.handler_name != "options_handler":  # only Litestar's own
        return
    for route in scope["litestar_app"].routes:
        if isinstance(route, HTTPRoute) and any(h is handler for h in route.route_handlers):
            allow = ", ".join(sorted(route.methods)).encode("latin-1")
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
            message["headers"] = [*headers, (b"allow", allow)]  # type: ignore[typeddict-unknown-key]
            return
