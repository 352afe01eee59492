"""How much anyone may register: dynamic client registration (POST /register) is open to every caller, so
each client address has a budget of registrations per window (HEARKEN_RATE_LIMIT_OAUTH_REGISTRATION, the
address as the trusted proxies name it, an IPv6 client by its /64, kept only as a keyed hash), and a
registration is at most REGISTRATION_MAX_BYTES. Both are answered before the body is read whole, in
RFC 7591's error shape; what the body may hold is app/mcp/client_metadata.py's to say. And since many
addresses together could still register without end, at most UNCONNECTED_CLIENTS_MAX clients that nobody
has connected are kept: past it registration answers 503 until the hourly purge deletes those older than a
day (tenants/connected_apps.py).
"""

from __future__ import annotations

import hashlib
import hmac

import msgspec
from litestar.response.base import ASGIResponse
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.ingest import client_address, client_network
from app.request_checks.call_budget import CallBudget
from tenants import connected_apps

REGISTRATION_MAX_BYTES = 16 * 1024
FULL_RETRY_AFTER = 3600
"""Seconds a registration is asked to wait while the clients never connected are at their bound: the
interval of the purge that deletes them."""


def registration_limited(endpoint: ASGIApp) -> ASGIApp:
    """`endpoint` (the registration route), behind the budget per client address and the size cap."""

    async def limited(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("method") != "POST":  # the CORS preflight
            await endpoint(scope, receive, send)
            return
        app = scope["litestar_app"]
        budget: CallBudget = app.state.oauth_registrations
        if wait := await budget.spend(_client_key(app.state.settings, scope)):
            message = f"too many registrations from your address; retry after {wait} seconds"
            await _refusal(429, "rate_limited", message, {"Retry-After": str(wait)})(scope, receive, send)
            return
        body = await _body(scope, receive)
        if body is None:
            message = f"the registration is larger than {REGISTRATION_MAX_BYTES} bytes"
            await _refusal(413, "invalid_client_metadata", message)(scope, receive, send)
            return
        async with app.state.session_maker() as session:
            waiting = await connected_apps.unconnected_clients(session)
        if waiting >= connected_apps.UNCONNECTED_CLIENTS_MAX:
            message = "too many registrations are waiting to be connected; retry later"
            headers = {"Retry-After": str(FULL_RETRY_AFTER)}
            await _refusal(503, "temporarily_unavailable", message, headers)(scope, receive, send)
            return
        await endpoint(scope, _replay(body, receive), send)

    return limited


def _client_key(settings: Settings, scope: Scope) -> str:
    network = client_network(client_address(scope, settings.trusted_proxies))
    key = f"oauth-registrations|{settings.secret_key}".encode()
    return hmac.new(key, network.encode(), hashlib.sha256).hexdigest()[:32]


async def _body(scope: Scope, receive: Receive) -> bytes | None:
    """The whole body, or None as soon as it is known to be over the cap (declared or sent)."""
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit() and int(value) > REGISTRATION_MAX_BYTES:
            return None
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return bytes(body)
        body += message.get("body", b"")
        if len(body) > REGISTRATION_MAX_BYTES:
            return None
        if not message.get("more_body", False):
            return bytes(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read, as one message; then the connection's own messages (its disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _refusal(
    status: int, error: str, description: str, headers: dict[str, str] | None = None
) -> ASGIResponse:
    """RFC 7591's error shape (`rate_limited` is ours: the RFC has no code for it); readable by the
    browser-based clients the registration route allows."""
    return ASGIResponse(
        body=msgspec.json.encode({"error": error, "error_description": description}),
        status_code=status,
        media_type="application/json",
        headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store", **(headers or {})},
    )
