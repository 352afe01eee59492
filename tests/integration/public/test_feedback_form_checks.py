"""The public feedback submit's multipart form is held to the rules of its JSON body: every field, and the
JSON written in a field (`metadata`, `elapsed_ms`), is checked for deep nesting and NUL characters, and a
refusal is a 400 naming the field with nothing stored."""

from __future__ import annotations

import logging

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.factories import Tenant
from tests.images import png
from tests.integration.public.conftest import ALLOWED, stored_rows
from tests.integration.public.test_attachments import images

SUBMIT = "/api/v1/feedback/submit"
DEPTH = 5000
DEEP_OBJECT = '{"a":' * DEPTH + "1" + "}" * DEPTH

REFUSED = [
    # field, its text in the form, how the answer must begin (None: stored)
    pytest.param("metadata", DEEP_OBJECT, "metadata: must not nest", id="metadata-deep"),
    pytest.param("metadata", "{" * DEPTH, "metadata: ", id="metadata-unclosed"),
    pytest.param("metadata", '{"note": "a\\u0000b"}', "metadata.note: must not contain NUL", id="meta-nul"),
    pytest.param("metadata", '{"no\\u0000te": "ab"}', "metadata.no", id="metadata-key-nul"),
    pytest.param("message", "hello\x00there", "message: must not contain NUL", id="message-nul"),
    pytest.param("message", "hello\\u0000there", None, id="message-escape-is-text"),
    pytest.param("elapsed_ms", "[" * DEPTH + "]" * DEPTH, "elapsed_ms: must not nest", id="elapsed-deep"),
    pytest.param("elapsed_ms", "1_000", "elapsed_ms: ", id="elapsed-not-json"),
    pytest.param("submitted_by", "user\x007", "submitted_by: must not contain NUL", id="submitted-by-nul"),
]


async def submit_form(
    client: AsyncTestClient, tenant: Tenant, with_image: bool, **fields: str
) -> tuple[int, dict[str, str]]:
    parts = {"project_key": tenant.project_key, "message": "The chart is cut off", "type": "Bug", **fields}
    files = [(name, (None, value)) for name, value in parts.items()]
    if with_image:
        files += images(("chart.png", png()))
    response = await client.post(SUBMIT, files=files, headers={"Origin": ALLOWED})
    return response.status_code, response.json()


@pytest.mark.parametrize("with_image", [False, True], ids=["fields", "fields-and-image"])
@pytest.mark.parametrize(("field", "text", "named"), REFUSED)
async def test_form_fields_are_checked_as_the_json_body_is(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    caplog: pytest.LogCaptureFixture,
    with_image: bool,
    field: str,
    text: str,
    named: str | None,
) -> None:
    """Review finding 9: the multipart feedback submit read `metadata` without the JSON body's nesting and
    NUL checks (5,000 nested objects were a 500, an escaped NUL was stored on SQLite and a 500 on
    PostgreSQL). Every field is now a 400 naming it, and nothing is stored."""
    caplog.set_level(logging.INFO)
    status, answer = await submit_form(client, tenant, with_image, **{field: text})
    if named is None:
        assert status == 200, answer
        return
    assert status == 400, answer
    assert answer["error"] == "invalid_request"
    assert answer["details"].startswith(named), answer
    assert await stored_rows(session_maker) == 0
    assert not [record for record in caplog.records if record.exc_info]


async def test_a_form_stores_what_the_json_body_stores(client: AsyncTestClient, tenant: Tenant) -> None:
    """Review finding 9: the form is read as the JSON body with the same fields, so `metadata` and
    `elapsed_ms` written as JSON come back as the JSON body's would."""
    status, answer = await submit_form(
        client, tenant, True, metadata='{"plan": "pro", "seats": 3}', elapsed_ms="4500.0", path="/charts"
    )
    assert status == 200, answer
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    (item,) = listed.json()["feedback"]
    assert item["metadata"] == {"plan": "pro", "seats": 3}
    assert item["path"] == "/charts"
    assert item["spam"] is False  # 4500.0 ms read as the whole number 4500, as in a JSON body
