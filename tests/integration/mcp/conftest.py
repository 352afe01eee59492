"""Every MCP test serves the application on the free port its settings name as the public address."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.config import Settings
from tests.mcp_clients import served_settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    return served_settings(database_url)


def with_changes(settings: Settings, **changes: object) -> Settings:
    return replace(settings, **changes)  # type: ignore[arg-type]
