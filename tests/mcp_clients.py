"""The application served by uvicorn in the test's event loop on a free port, and the official `mcp`
client connected to its /mcp over streamable HTTP with a token."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import httpx2
import uvicorn
from litestar import Litestar
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from app.config import Settings
from tests.console_helpers import use_memory_stores
from tests.server_processes import free_port


def served_settings(database_url: str) -> Settings:
    """Settings whose public address is a free port on this machine, where `served` then listens: the
    addresses the server hands out (resource metadata, OAuth endpoints) are the ones it answers on. The
    port is the process's own for all its tests (one serves at a time), so that their settings are equal
    and the `app` fixture builds their application once."""
    return Settings(
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        base_url=f"http://127.0.0.1:{_served_port()}",
        embeddings="off",  # as every test without the model; the insights tests turn it on
    )


@functools.cache
def _served_port() -> int:
    return free_port()


@asynccontextmanager
async def served(app: Litestar) -> AsyncIterator[str]:
    """Serve `app` on the port of its settings' base URL until the block ends; yields that URL."""
    use_memory_stores(app)
    base_url = app.state.settings.base_url
    port = urlsplit(base_url).port
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield base_url
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def mcp_client(
    base_url: str, headers: dict[str, str], statuses: list[int] | None = None
) -> AsyncIterator[Client]:
    """The official client on `{base_url}/mcp`, sending `headers` (the token) with every request; the
    HTTP status of each answer is appended to `statuses` when given."""

    async def note(response: httpx2.Response) -> None:
        if statuses is not None:
            statuses.append(response.status_code)

    async with (
        httpx2.AsyncClient(headers=headers, timeout=30, event_hooks={"response": [note]}) as http,
        Client(streamable_http_client(f"{base_url}/mcp", http_client=http)) as client,
    ):
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
