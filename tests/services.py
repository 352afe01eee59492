"""Where the suite finds PostgreSQL and Redis, and what it does when they are not there.

On a developer's machine without them those tests skip with a reason; in CI
(HEARKEN_REQUIRE_SERVICES=1) a missing service fails the run instead.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

POSTGRES_ADMIN_URL = os.environ.get(
    "HEARKEN_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("HEARKEN_TEST_REDIS", "redis://127.0.0.1:6379/0")


def services_required() -> bool:
    return os.environ.get("HEARKEN_REQUIRE_SERVICES") == "1"


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def require(name: str, host: str, port: int) -> None:
    """Skip (or, in CI, fail) when the service does not answer."""
    if reachable(host, port):
        return
    message = f"{name} is not reachable at {host}:{port}"
    if services_required():
        pytest.fail(f"{message} and HEARKEN_REQUIRE_SERVICES=1")
    pytest.skip(message)


def require_postgres() -> None:
    require("PostgreSQL", "127.0.0.1", 5432)


def require_redis() -> None:
    require("Redis", "127.0.0.1", 6379)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> None:
    """Browser tests drive Debian's Chromium; skip without it (fail in CI)."""
    if Path(CHROMIUM).exists():
        return
    message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if services_required():
        pytest.fail(message)
    pytest.skip(message)
