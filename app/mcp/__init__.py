"""The MCP server at /mcp: AI assistants read and triage the organization's feedback through tools that
call the REST API's services (see docs/mcp.md). The `mcp` package itself is loaded by the first request
to /mcp or to an OAuth endpoint (app/mcp/on_demand.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, asgi
from litestar.handlers import ASGIRouteHandler
from litestar.types import Receive, Scope, Send
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.mcp.authentication import McpAuthentication
from app.mcp.oauth_routes import oauth_routes
from app.mcp.on_demand import McpOnDemand
from app.request_checks.call_budget import CallBudget

MCP_CALL_STORE = "mcp_calls"
OAUTH_REGISTRATION_STORE = "oauth_registrations"


def mcp_routes(settings: Settings, session_maker: async_sessionmaker[AsyncSession]) -> list[ASGIRouteHandler]:
    """/mcp, and the OAuth endpoints that let an assistant connect by the URL alone."""

    async def transport(scope: Scope, receive: Receive, send: Send) -> None:
        served: McpOnDemand = scope["litestar_app"].state.mcp
        manager = await served.session_manager()
        await manager.handle_request(scope, receive, send)  # type: ignore[arg-type]

    authenticated = McpAuthentication(transport, settings.base_url)

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        scope["path_template"] = "/mcp"  # the access log's and the metrics' route label
        await authenticated(scope, receive, send)

    # copy_scope=False: the access log reads the organization the authentication puts in the scope
    mcp = asgi("/mcp", is_mount=True, copy_scope=False, include_in_schema=False, name="mcp")(endpoint)
    return [mcp, *oauth_routes(settings, session_maker)]


@asynccontextmanager
async def mcp_server(app: Litestar) -> AsyncIterator[None]:
    """The MCP session manager of this process: started by the first call, stopped with the application;
    and the budgets of tool calls per token and of OAuth registrations per client address."""
    settings: Settings = app.state.settings
    redis, prefix = app.state.redis, settings.redis_prefix
    budget = CallBudget(settings.rate_limit_mcp, redis, f"{prefix}mcp-calls:", app.stores.get(MCP_CALL_STORE))
    app.state.oauth_registrations = CallBudget(
        settings.rate_limit_oauth_registration,
        redis,
        f"{prefix}oauth-registrations:",
        app.stores.get(OAUTH_REGISTRATION_STORE),
    )
    app.state.mcp = McpOnDemand(app.state.session_maker, budget, settings)
    try:
        yield
    finally:
        await app.state.mcp.stop()
