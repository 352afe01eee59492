"""Allowed-origin entries are validated and normalized when saved: the CLI refuses a path, a query, a
bare host or another scheme with a clear message, and stores the canonical form."""

from __future__ import annotations

import json

import pytest

from tests.factories import Tenant
from tests.integration.public.servers import hearken_in_thread, server_env


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("https://example.com/docs", "must not have a path, query or fragment"),
        ("https://example.com?x=1", "must not have a path, query or fragment"),
        ("example.com", "needs a scheme: write https://example.com"),
        ("ftp://example.com", "must use http or https"),
        ("https://*.com", "a wildcard needs a domain below it"),
    ],
)
async def test_cli_refuses_bad_origins(database_url: str, tenant: Tenant, entry: str, message: str) -> None:
    result = await hearken_in_thread(
        server_env(database_url),
        "projects",
        "create",
        "--org",
        str(tenant.org_id),
        "--name",
        "X",
        "--origin",
        entry,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


async def test_cli_stores_normalized_origins(database_url: str, tenant: Tenant) -> None:
    result = await hearken_in_thread(
        server_env(database_url),
        "projects",
        "create",
        "--org",
        str(tenant.org_id),
        "--name",
        "Shop",
        *("--origin", "HTTPS://Shop.Example.com:443"),
        *("--origin", "http://localhost:8080/"),
        *("--origin", "https://*.Example.org"),
    )
    assert result.returncode == 0, result.stderr
    project = json.loads(result.stdout)
    assert project["allowed_origins"] == [
        "https://shop.example.com",
        "http://localhost:8080",
        "https://*.example.org",
    ]
