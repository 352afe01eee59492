"""The MCP server: the official `mcp` package's low-level server, served over streamable HTTP.

Stateless and with plain JSON answers: every POST carries its own token and is answered by whichever
process gets it, so it works behind the load balancer like the REST API, and a revoked token is refused
on its next call on every node. Each tool call opens its own database session with the caller's scope.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import mcp_types as types
import msgspec
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.actor import current_actor
from app.mcp.authentication import CALLER_KEY, SCOPE_KEY
from app.mcp.tool_arguments import input_schema
from app.mcp.tool_errors import error_result, tool_error_body
from app.mcp.tools import TOOLS, Tool, ToolCall
from app.request_checks.call_budget import CallBudget
from app.request_checks.nul_characters import refuse_nul_in_document
from tenants.permissions import require
from tenants.scope import Access, OrgScope

logger = logging.getLogger("hearken.mcp")


INSTRUCTIONS = (
    "Hearken holds visitor feedback of the organization's websites, apps and docs: feedback items, "
    "'was this page helpful?', star and NPS ratings, contact messages. Start with list_projects; every "
    "other tool takes a project_id. Lists are paged (page, limit at most 100)."
)


def _listed(tool: Tool[Any]) -> types.Tool:
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=input_schema(tool.arguments),
        output_schema=_output_schema(tool.output),
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=not tool.writes,
            destructive_hint=tool.destructive if tool.writes else None,
            idempotent_hint=None if tool.writes else True,
            open_world_hint=False,
        ),
    )


@functools.cache
def listed_tools() -> dict[str, types.Tool]:
    """What tools/list answers, built once per process: their JSON schemas cost milliseconds that every
    start of the application would pay again."""
    return {tool.name: _listed(tool) for tool in TOOLS}


def _output_schema(output: Any) -> dict[str, Any] | None:
    if output is None:
        return None
    schema = msgspec.json.schema(output)
    if "$ref" in schema:
        definitions = schema.pop("$defs", {})
        name = schema["$ref"].rsplit("/", 1)[-1]
        root = dict(definitions[name])
        root["$defs"] = definitions
        return root
    # a union of bodies (the statistics of each rating type): an object whose shape its "type" decides
    return {"type": "object", **schema}


class McpTools:
    """The tools' two requests, list and call, for the scope the authentication resolved."""

    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        budget: CallBudget,
        settings: Settings | None = None,
    ) -> None:
        self.session_maker = session_maker
        self.settings = settings
        self.budget = budget
        self.tools = {tool.name: tool for tool in TOOLS}
        self.listed = listed_tools()

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], _: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        scope = _caller_scope(ctx)
        return types.ListToolsResult(
            tools=[self.listed[t.name] for t in TOOLS if not t.writes or scope.access >= Access.WRITE]
        )

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        scope = _caller_scope(ctx)
        tool = self.tools.get(params.name)
        if tool is None:
            return error_result("not_found", f"name: no tool named {params.name!r}")
        wait = await self.budget.spend(ctx.request.scope[CALLER_KEY])  # type: ignore[union-attr]
        if wait:
            return error_result(
                "rate_limited", f"too many tool calls; retry after {wait} seconds", retry_after=wait
            )
        current_actor.set(scope.actor)
        try:
            if tool.writes:
                require(scope, Access.WRITE)
            refuse_nul_in_document(params.arguments or {})
            arguments = msgspec.convert(params.arguments or {}, tool.arguments, strict=True)
            async with self.session_maker() as session:
                body, text = await tool.run(ToolCall(session, scope, self.settings), arguments)
                if tool.writes:
                    await session.commit()
        except Exception as exc:  # every failure is answered as a tool error, never a stack trace
            return error_result(*tool_error_body(exc))
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=msgspec.to_builtins(body)
        )


def _caller_scope(ctx: ServerRequestContext[Any, Any]) -> OrgScope:
    scope: OrgScope = ctx.request.scope[SCOPE_KEY]  # type: ignore[union-attr]
    return scope


def mcp_session_manager(
    session_maker: async_sessionmaker[AsyncSession], budget: CallBudget, settings: Settings | None = None
) -> StreamableHTTPSessionManager:
    tools = McpTools(session_maker, budget, settings)
    server: Server[Any] = Server(
        "hearken",
        version="1",
        title="Hearken",
        instructions=INSTRUCTIONS,
        on_list_tools=tools.list_tools,
        on_call_tool=tools.call_tool,
    )
    return StreamableHTTPSessionManager(app=server, json_response=True, stateless=True)
