"""Who calls /mcp: an organization token as `Authorization: Bearer oat_...` or `X-API-Key`, resolved by
the same token directory as the REST API's, or the access token of an app connected by OAuth. No token or
a bad one is 401 with the `WWW-Authenticate` header that points MCP clients at the protected-resource
metadata (and from there at OAuth)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.types import ASGIApp, Receive, Scope, Send

from tenants.connected_apps import ACCESS_PATTERN
from tenants.scope import app_scope, token_scope
from tenants.token_directory import TokenDirectory
from tenants.token_format import TOKEN_PATTERN, token_digest

RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource"
SCOPE_KEY = "hearken_mcp_scope"
"""ASGI scope key where the authentication puts the caller's OrgScope."""
CALLER_KEY = "hearken_mcp_caller"
"""ASGI scope key: the token's identity, which the call budget counts."""


def presented_token(scope: Scope) -> str | None:
    headers = {key.lower(): value for key, value in scope["headers"]}
    authorization = headers.get(b"authorization", b"").decode("latin-1")
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    api_key = headers.get(b"x-api-key", b"").decode("latin-1").strip()
    return api_key or None


class McpAuthentication:
    """An ASGI wrapper around the MCP transport: puts the caller's OrgScope in the ASGI scope."""

    def __init__(self, app: ASGIApp, base_url: str) -> None:
        self.app = app
        self.resource_metadata = f"{base_url}{RESOURCE_METADATA_PATH}/mcp"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = presented_token(scope)
        if token is None:
            await self._refuse(send, "send a token as Authorization: Bearer oat_... or X-API-Key", None)
            return
        state = scope["litestar_app"].state
        caller = await self._resolve(state.token_directory, token)
        if caller is None:
            await self._refuse(send, "the token is unknown, expired or revoked", "invalid_token")
            return
        scope[SCOPE_KEY], scope[CALLER_KEY] = caller  # type: ignore[literal-required]
        scope["auth"] = caller[0]  # the access log names the organization
        await self.app(scope, receive, send)

    async def _resolve(self, directory: TokenDirectory, token: str) -> tuple[Any, str] | None:
        if TOKEN_PATTERN.match(token):
            grant = await directory.lookup(token_digest(token))
            if grant is None:
                return None
            scope = token_scope(grant.org_id, grant.prefix, can_write=grant.can_write)
            return scope, f"token:{grant.token_id}"
        if ACCESS_PATTERN.match(token):
            app = await directory.lookup_app(token_digest(token))
            if app is None:
                return None
            scope = app_scope(app.org_id, app.user_id, app.email, app.role, app.client_name)
            return scope, f"app:{app.app_id}"
        return None

    async def _refuse(self, send: Send, details: str, error: str | None) -> None:
        challenge = f'Bearer resource_metadata="{self.resource_metadata}"'
        if error:
            challenge += f', error="{error}"'
        body = msgspec.json.encode({"error": "unauthorized", "details": details})
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", challenge.encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
