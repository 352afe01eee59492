"""Every MCP test serves the application on the free port its settings name as the public address."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import httpx
import pytest
from litestar import Litestar

from app.config import Settings
from tests.mcp_clients import served, served_settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    return served_settings(database_url)


def with_changes(settings: Settings, **changes: object) -> Settings:
    return replace(settings, **changes)  # type: ignore[arg-type]


@pytest.fixture
async def base_url(app: Litestar) -> AsyncIterator[str]:
    async with served(app) as url:
        yield url


@pytest.fixture
async def http(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base_url) as client:
        yield client
