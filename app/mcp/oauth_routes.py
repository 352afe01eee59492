"""The OAuth 2.1 endpoints assistants use to connect by URL alone: the `mcp` package's routes (metadata,
registration, authorization, token, revocation) mounted in the Litestar application, with the
protected-resource metadata of /mcp at the RFC 9728 address and at the bare well-known one.

The issuer is the server's public address. OAuth needs it to be HTTPS (or a loopback address, for trying
it locally); with any other address the endpoints are left out and /mcp takes organization tokens only.
"""

from __future__ import annotations

import logging

from litestar import asgi
from litestar.handlers import ASGIRouteHandler
from litestar.types import Receive, Scope, Send
from mcp.server.auth.routes import create_auth_routes, create_protected_resource_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from pydantic import AnyHttpUrl
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.routing import Route

from app.config import Settings
from app.mcp.authentication import RESOURCE_METADATA_PATH
from app.mcp.oauth_provider import HearkenOAuthProvider

logger = logging.getLogger("hearken.mcp")


def oauth_routes(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession]
) -> list[ASGIRouteHandler]:
    issuer = AnyHttpUrl(settings.base_url)
    provider = HearkenOAuthProvider(session_maker, settings.base_url, settings.secret_key)
    try:
        routes = create_auth_routes(
            provider,  # type: ignore[arg-type]
            issuer_url=issuer,
            client_registration_options=ClientRegistrationOptions(enabled=True),
            revocation_options=RevocationOptions(enabled=True),
        )
    except ValueError as exc:
        logger.warning("OAuth for MCP assistants is off: %s (HEARKEN_BASE_URL %s)", exc, settings.base_url)
        return []
    [resource_metadata] = create_protected_resource_routes(
        resource_url=AnyHttpUrl(f"{settings.base_url}/mcp"),
        authorization_servers=[issuer],
        resource_name="Hearken",
    )
    mounted = [(route.path, route) for route in routes]
    mounted += [
        (RESOURCE_METADATA_PATH, resource_metadata),
        (f"{RESOURCE_METADATA_PATH}/mcp", resource_metadata),
    ]
    return [_mounted(path, route) for path, route in mounted]


def _mounted(path: str, route: Route) -> ASGIRouteHandler:
    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await route.handle(scope, receive, send)  # type: ignore[arg-type]  # it answers 405 to other methods

    name = "oauth:" + path.strip("/").replace("/", ":").replace(".", "")
    return asgi(path, copy_scope=True, include_in_schema=False, name=name)(endpoint)
