"""Bodies at the edges of what parsers accept: deep nesting, NUL characters in every form encoding,
hostile email addresses. Each is a 400 naming the field, never a 500 or a stored oddity."""

from __future__ import annotations

import logging

import pytest
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
