"""The `mcp` package is loaded when an assistant first calls, not when the application starts: its import
is about a second of CPU here, which every server start and every `hearken` command would pay, and most
processes never serve /mcp."""

from __future__ import annotations

import asyncio
import contextvars
import importlib
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.request_checks.call_budget import CallBudget

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager


async def load(module: str) -> Any:
    """Import `module` on a thread, so that the requests already in flight go on meanwhile."""
    return await anyio.to_thread.run_sync(importlib.import_module, module)


class McpOnDemand:
    """This process's MCP session manager: made and started by the first request to /mcp, run until the
    application stops (its task group must be entered and left by one task: a task of its own)."""

    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        budget: CallBudget,
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings
        self.session_maker = session_maker
        self.budget = budget
        self._manager: StreamableHTTPSessionManager | None = None
        self._starting = asyncio.Lock()
        self._stopping = asyncio.Event()
        self._running: asyncio.Task[None] | None = None

    async def session_manager(self) -> StreamableHTTPSessionManager:
        async with self._starting:
            if self._manager is None:
                server = await load("app.mcp.server")
                manager = server.mcp_session_manager(self.session_maker, self.budget, self.settings)
                started = asyncio.get_running_loop().create_future()
                # A context of its own: not the context of the request that happened to start it.
                self._running = asyncio.create_task(
                    self._run(manager, started), context=contextvars.Context()
                )
                await started
                self._manager = manager
        return self._manager

    async def _run(self, manager: StreamableHTTPSessionManager, started: asyncio.Future[None]) -> None:
        try:
            async with manager.run():
                started.set_result(None)
                await self._stopping.wait()
        except Exception as error:
            if started.done():
                raise
            started.set_exception(error)  # the request that started it fails; the next one tries again

    async def stop(self) -> None:
        self._stopping.set()
        if self._running is not None:
            await self._running
