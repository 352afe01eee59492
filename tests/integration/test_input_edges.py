"""Bodies at the edges of what parsers accept: deep nesting, NUL characters in every form encoding,
hostile email addresses. Each is a 400 naming the field, never a 500 or a stored oddity."""

from __future__ import annotations

import logging

import pytest
from litestar import Litestar
from litestar.routes import ASGIRoute
from litestar.testing import AsyncTestClient

from tests.console_helpers import PASSWORD, Console
from tests.factories import Tenant

DEPTH = 2000


@pytest.mark.parametrize("content", [b"[" * DEPTH + b"]" * DEPTH, b'{"a":' * DEPTH + b"1" + b"}" * DEPTH])
async def test_deeply_nested_json_is_400_without_a_traceback(
    client: AsyncTestClient, tenant: Tenant, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    for path, headers in (
        (f"/api/v1/projects/{tenant.project_id}/feedback", tenant.headers),
        ("/api/v1/contact/submit", {"Origin": "https://site.example"}),
    ):
        response = await client.post(
            path, content=content, headers={**headers, "Content-Type": "application/json"}
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "invalid_request"
        assert response.json()["details"].startswith("body: ")
    assert "Traceback" not in caplog.text
    assert not [record for record in caplog.records if record.exc_info]


async def test_nul_in_a_multipart_console_form_is_refused(console: Console) -> None:
    """The console's forms are read from any encoding Litestar parses, so each is checked."""
    await console.get("/signup")
    refused = await console.client.post(
        "/signup",
        data={
            "_csrf_token": console.csrf,
            "org_name": "Evil\x00Corp",
            "email": "nul@org.example",
            "password": PASSWORD,
        },
        files={"attachment": ("note.txt", b"not a field", "text/plain")},
    )
    assert refused.status_code == 400
    assert "NUL" in refused.text
    assert (await console.login("nul@org.example")).status_code == 400  # no account was made


async def test_every_mounted_asgi_app_refuses_nul_characters(app: Litestar, client: AsyncTestClient) -> None:
    """Review finding 9: the ASGI apps mounted beside the routes (the OAuth endpoints of MCP) never passed
    the before-request checks. Every mount added later is checked here too; /mcp itself checks its tool
    arguments where it decodes them (tests/integration/mcp/test_mcp_tools.py)."""
    mounted = [
        route.path
        for route in app.routes
        if isinstance(route, ASGIRoute) and route.path != "/mcp" and "{" not in route.path
    ]
    assert "/register" in mounted
    for path in mounted:
        refused = await client.post(
            f"{path}?state=a%00b", content=b"{}", headers={"Content-Type": "application/json"}
        )
        assert refused.status_code == 400, (path, refused.text)
        assert refused.json() == {
            "error": "invalid_request",
            "details": "state: must not contain NUL characters",
        }
