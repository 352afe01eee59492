"""The OAuth 2.1 endpoints assistants use to connect by URL alone: the `mcp` package's routes (metadata,
registration, authorization, token, revocation) mounted in the Litestar application, with the
protected-resource metadata of /mcp at the RFC 9728 address and at the bare well-known one.

The issuer is the server's public address. OAuth needs it to be HTTPS (or a loopback address, for trying
it locally), without a query or fragment; with any other address the endpoints are left out and /mcp
takes organization tokens only. The routes themselves are made by the first request to any of them, so
that a process that never serves OAuth never imports the `mcp` package. Registration is limited per client
address and in size (app/mcp/registration_limits.py); the authorization endpoint sends the browser
nowhere before its client and redirect URI are known (app/mcp/oauth_authorization.py).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from litestar import asgi
from litestar.handlers import ASGIRouteHandler
from litestar.types import Receive, Scope, Send
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.mcp.authentication import RESOURCE_METADATA_PATH
from app.mcp.on_demand import load
from app.mcp.registration_limits import registration_limited
from app.request_checks.mounted_apps import CheckedRequests

if TYPE_CHECKING:
    from starlette.routing import Route

logger = logging.getLogger("hearken.mcp")

REGISTRATION_PATH = "/register"
AUTHORIZATION_SERVER_PATHS = (
    "/.well-known/oauth-authorization-server",
    "/authorize",
    "/token",
    REGISTRATION_PATH,
    "/revoke",
)
"""The paths the `mcp` package's authorization server answers (a test holds them to what it makes)."""
RESOURCE_PATHS = (RESOURCE_METADATA_PATH, f"{RESOURCE_METADATA_PATH}/mcp")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def issuer_refused(base_url: str) -> str | None:
    """Why OAuth cannot be offered at this address (as the `mcp` package judges it), or None."""
    parts = urlsplit(base_url)
    if parts.scheme != "https" and parts.hostname not in LOOPBACK_HOSTS:
        return "Issuer URL must be HTTPS"
    if parts.fragment:
        return "Issuer URL must not have a fragment"
    if parts.query:
        return "Issuer URL must not have a query string"
    return None


def oauth_routes(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession]
) -> list[ASGIRouteHandler]:
    if why := issuer_refused(settings.base_url):
        logger.warning("OAuth for MCP assistants is off: %s (HEARKEN_BASE_URL %s)", why, settings.base_url)
        return []
    routes = OAuthRoutes(settings, session_maker)
    return [_mounted(path, routes) for path in (*AUTHORIZATION_SERVER_PATHS, *RESOURCE_PATHS)]


class OAuthRoutes:
    """The `mcp` package's Starlette routes by path, made when the first request asks for one."""

    def __init__(self, settings: Settings, session_maker: async_sessionmaker[AsyncSession]) -> None:
        self.settings = settings
        self.session_maker = session_maker
        self._routes: dict[str, Route] | None = None

    async def route(self, path: str) -> Route:
        if self._routes is None:
            self._routes = await self.make()
        return self._routes[path]

    async def make(self) -> dict[str, Route]:
        routes = await load("mcp.server.auth.routes")
        options = await load("mcp.server.auth.settings")
        provider = await load("app.mcp.oauth_provider")
        authorization = await load("app.mcp.oauth_authorization")
        pydantic = await load("pydantic")
        base_url = self.settings.base_url
        issuer = pydantic.AnyHttpUrl(base_url)
        server = provider.HearkenOAuthProvider(self.session_maker, base_url, self.settings.secret_key)
        server_routes = routes.create_auth_routes(
            server,
            issuer_url=issuer,
            client_registration_options=options.ClientRegistrationOptions(enabled=True),
            revocation_options=options.RevocationOptions(enabled=True),
        )
        [resource_metadata] = routes.create_protected_resource_routes(
            resource_url=pydantic.AnyHttpUrl(f"{base_url}/mcp"),
            authorization_servers=[issuer],
            resource_name="Hearken",
        )
        made: dict[str, Route] = {route.path: route for route in server_routes}
        made[authorization.AUTHORIZATION_PATH] = authorization.authorization_route(server)
        return made | dict.fromkeys(RESOURCE_PATHS, resource_metadata)


def _mounted(path: str, routes: OAuthRoutes) -> ASGIRouteHandler:
    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        route = await routes.route(path)
        await route.handle(scope, receive, send)  # type: ignore[arg-type]  # it answers 405 to other methods

    checked = CheckedRequests(handle)

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await checked(scope, receive, send)

    name = "oauth:" + path.strip("/").replace("/", ":").replace(".", "")
    handler = registration_limited(endpoint) if path == REGISTRATION_PATH else endpoint
    return asgi(path, copy_scope=True, include_in_schema=False, name=name)(handler)
