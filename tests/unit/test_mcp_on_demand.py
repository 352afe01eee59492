"""The `mcp` package is loaded by the first call to /mcp or to an OAuth endpoint, never by a start: the
paths and the issuer rule the application declares before loading it must be the package's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mcp.server.auth.routes import create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from pydantic import AnyHttpUrl

from app.mcp.oauth_provider import HearkenOAuthProvider
from app.mcp.oauth_routes import AUTHORIZATION_SERVER_PATHS, issuer_refused
from tests.integration.public.servers import ROOT, server_env


def _packages_routes(base_url: str) -> list[str]:
    provider = HearkenOAuthProvider(None, base_url, "secret")  # type: ignore[arg-type]  # never called
    routes = create_auth_routes(
        provider,  # type: ignore[arg-type]
        issuer_url=AnyHttpUrl(base_url),
        client_registration_options=ClientRegistrationOptions(enabled=True),
        revocation_options=RevocationOptions(enabled=True),
    )
    return [route.path for route in routes]


def test_the_declared_paths_are_those_the_package_serves() -> None:
    assert sorted(_packages_routes("https://hearken.example")) == sorted(AUTHORIZATION_SERVER_PATHS)


@pytest.mark.parametrize(
    "base_url",
    [
        "https://hearken.example",
        "https://hearken.example:8443/base",
        "http://localhost:8000",
        "http://127.0.0.1:8000",
        "http://[::1]:8000",
        "http://hearken.example",
        "http://10.0.0.5:8000",
        "https://hearken.example/?tenant=1",
        "https://hearken.example/#top",
    ],
)
def test_the_issuer_rule_is_the_packages(base_url: str) -> None:
    try:
        _packages_routes(base_url)
        packages_reason = None
    except ValueError as refused:
        packages_reason = str(refused)
    assert issuer_refused(base_url) == packages_reason


def test_a_start_does_not_import_the_mcp_package(tmp_path: Path) -> None:
    env = server_env(f"sqlite+aiosqlite:///{tmp_path}/never-used.db")
    script = (
        "import sys; from app.main import create_app; create_app(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
