"""On every route, each client mistake is a 4xx `{"error", "details"}` naming the problem, never 500
or 422."""

from __future__ import annotations

import json
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.factories import Tenant

Message = dict[str, Any]
UNKNOWN_ID = "0190b2b4-0000-7000-8000-000000000000"


async def feedback_total(client: AsyncTestClient, tenant: Tenant) -> int:
    response = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    return int(response.json()["pagination"]["total"])


@pytest.mark.parametrize(
    "path", ["/nope", "/api/v1/nope", "/api/v1/projects/{pid}/nothing-here", "/api/v2/projects"]
)
async def test_unknown_routes_are_404_json(client: AsyncTestClient, tenant: Tenant, path: str) -> None:
    response = await client.get(path.format(pid=tenant.project_id), headers=tenant.headers)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"error": "not_found", "details": "no such resource"}


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/api/v1/projects/{pid}/feedback", {"GET", "POST"}),
        ("DELETE", "/api/v1/projects/{pid}/feedback", {"GET", "POST"}),
        ("POST", "/api/v1/projects/{pid}/feedback/{fid}/history", {"GET"}),
        ("PUT", "/api/v1/projects/{pid}/contact-messages/{fid}", {"GET", "PATCH", "DELETE"}),
        ("DELETE", "/api/v1/projects", {"GET"}),
    ],
)
async def test_wrong_method_is_405(
    client: AsyncTestClient, tenant: Tenant, method: str, path: str, allowed: set[str]
) -> None:
    url = path.format(pid=tenant.project_id, fid=UNKNOWN_ID)
    response = await client.request(method, url, headers=tenant.headers)
    assert response.status_code == 405
    assert response.json() == {
        "error": "method_not_allowed",
        "details": "this method is not allowed on this path",
    }
    assert set(response.headers["allow"].replace(" ", "").split(",")) >= allowed


@pytest.mark.parametrize(
    ("content", "details"),
    [
        (b"{not json", "body: JSON is malformed"),
        (b'{"message": "unterminated', "body: Input data was truncated"),
        (b"", "body: a JSON object is required"),
        (b"[]", "body: Expected `object`, got `array`"),
        (b'"text"', "body: Expected `object`, got `str`"),
        (b"{}", "message: is required"),
        (b'{"message": ["a"]}', "message: Expected `str`, got `array`"),
        (b'{"message": "ok", "type": 3}', "type: Expected `str`, got `int`"),
        (b'{"message": "ok", "status": "new"}', "status: Invalid enum value 'new'"),
        (b'{"message": "a\\u0000b"}', "message: must not contain NUL characters"),
        (b'{"message": "ok", "type": "Bug\\u0000"}', "type: must not contain NUL characters"),
    ],
)
async def test_unreadable_or_mistyped_bodies_are_400_naming_the_field(
    client: AsyncTestClient, tenant: Tenant, content: bytes, details: str
) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        content=content,
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert response.json()["details"].startswith(details)
    assert await feedback_total(client, tenant) == 0


async def test_an_escaped_backslash_before_u0000_is_plain_text(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        content=b'{"message": "C:\\\\u0000 is a path"}',
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text
    assert response.json()["message"] == "C:\\u0000 is a path"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/projects/not-a-uuid/feedback",
        "/api/v1/projects/{pid}/feedback/xyz",
        "/api/v1/projects/{pid}/feedback/{short}/history",
        "/api/v1/projects/{pid}/contact-messages/1",
    ],
)
async def test_bad_uuids_in_paths_are_400(client: AsyncTestClient, tenant: Tenant, path: str) -> None:
    url = path.format(pid=tenant.project_id, short=UNKNOWN_ID[:-1])
    response = await client.get(url, headers=tenant.headers)
    assert response.status_code == 400
    assert "must be a UUID" in response.json()["details"]


async def test_bodies_over_64_kib_are_413_and_store_nothing(client: AsyncTestClient, tenant: Tenant) -> None:
    body = json.dumps({"message": "x" * (64 * 1024)}).encode()
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        content=body,
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json() == {"error": "payload_too_large", "details": "request body is larger than 64 KiB"}
    assert await feedback_total(client, tenant) == 0


async def test_streamed_bodies_over_64_kib_are_413(
    app: Litestar, client: AsyncTestClient, tenant: Tenant
) -> None:
    """A chunked body announces no length: the limit holds while it streams in."""
    chunks = [b'{"message": "', *([b"y" * 1024] * 70), b'"}']
    messages: list[Message] = []

    async def receive() -> Message:
        chunk = chunks.pop(0) if chunks else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message: Message) -> None:
        messages.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": f"/api/v1/projects/{tenant.project_id}/feedback",
        "raw_path": f"/api/v1/projects/{tenant.project_id}/feedback".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"x-api-key", tenant.token.encode()),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    await app(scope, receive, send)  # type: ignore[arg-type]
    start = next(m for m in messages if m["type"] == "http.response.start")
    assert start["status"] == 413
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    assert json.loads(body)["error"] == "payload_too_large"
    assert await feedback_total(client, tenant) == 0


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
async def test_non_json_content_types_are_415(
    client: AsyncTestClient, tenant: Tenant, content_type: str
) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        content=json.dumps({"message": "sent as text"}),
        headers={**tenant.headers, "Content-Type": content_type},
    )
    assert response.status_code == 415
    assert response.json()["error"] == "unsupported_media_type"
    assert response.json()["details"].startswith("Content-Type: must be application/json")
    assert await feedback_total(client, tenant) == 0


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json; charset=utf-8"},
        {"Content-Type": "application/merge-patch+json"},
        {},
    ],
)
async def test_json_media_types_and_a_missing_content_type_are_read_as_json(
    client: AsyncTestClient, tenant: Tenant, headers: dict[str, str]
) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        content=json.dumps({"message": "fine"}).encode(),
        headers={**tenant.headers, **headers},
    )
    assert response.status_code == 201


async def test_content_type_does_not_matter_without_a_json_body(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        headers={**tenant.headers, "Content-Type": "text/plain"},
    )
    assert response.status_code == 200


async def test_missing_token_is_checked_before_the_body(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.post(f"/api/v1/projects/{tenant.project_id}/feedback", content=b"{broken")
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"
