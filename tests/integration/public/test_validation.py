"""Every rule of the public bodies (lengths, patterns, types, ranges): 400 naming the field,
nothing stored."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, SUCCESS, stored_rows, valid_bodies

DROP = object()

RATING = "/api/v1/rating/submit"
TYPED = "/api/v1/ratings"
FEEDBACK = "/api/v1/feedback/submit"
CONTACT = "/api/v1/contact/submit"

CASES: list[tuple[str, str, Any, str]] = [
    # endpoint, dotted field, value (DROP = leave it out), the field the answer must name
    (RATING, "project_key", DROP, "project_key"),
    (RATING, "project_key", "not-a-uuid", "project_key"),
    (RATING, "project_key", 12, "project_key"),
    (RATING, "value", DROP, "value"),
    (RATING, "value", 1, "value"),
    (RATING, "value", "true", "value"),
    (RATING, "path", DROP, "path"),
    (RATING, "path", "docs/install", "path"),
    (RATING, "path", "/" + "a" * 2048, "path"),
    (RATING, "path", "/a\u0007b", "path"),
    (RATING, "path", 7, "path"),
    (RATING, "version", "v" * 101, "version"),
    (RATING, "version", 2, "version"),
    (RATING, "submitted_by", "ada@example.com", "submitted_by"),
    (RATING, "submitted_by", "a" * 256, "submitted_by"),
    (RATING, "submitted_by", "", "submitted_by"),
    (RATING, "metadata", {f"k{i}": i for i in range(21)}, "metadata"),
    (RATING, "metadata", {"reason": "x" * 501}, "metadata"),
    (RATING, "metadata", {"reason": ["inaccurate"]}, "metadata"),
    (RATING, "metadata", "inaccurate", "metadata"),
    (TYPED, "project_key", "1234", "project_key"),
    (TYPED, "rating", DROP, "rating"),
    (TYPED, "rating.type", "emoji", "rating.type"),
    (TYPED, "rating.value", 6, "rating.value"),
    (TYPED, "rating.value", 0, "rating.value"),
    (TYPED, "rating.value", 4.5, "rating.value"),
    (TYPED, "rating.value", True, "rating.value"),
    (TYPED, "rating.value", "4", "rating.value"),
    (TYPED, "rating.max_stars", 11, "rating.max_stars"),
    (TYPED, "rating.max_stars", 0, "rating.max_stars"),
    (TYPED, "context.path", "pricing", "context.path"),
    (TYPED, "context.version", "v" * 101, "context.version"),
    (TYPED, "context.submitted_by", "Ada Lovelace", "context.submitted_by"),
    (TYPED, "context.metadata", {f"k{i}": i for i in range(21)}, "context.metadata"),
    (TYPED, "context.metadata", {"note": "x" * 501}, "context.metadata"),
    (TYPED, "context.metadata", {"": 1}, "context.metadata"),
    (TYPED, "context.metadata", {"nested": {"a": 1}}, "context.metadata"),
    (FEEDBACK, "project_key", DROP, "project_key"),
    (FEEDBACK, "message", DROP, "message"),
    (FEEDBACK, "message", "ab", "message"),
    (FEEDBACK, "message", "x" * 5001, "message"),
    (FEEDBACK, "message", 42, "message"),
    (FEEDBACK, "type", "Complaint", "type"),
    (FEEDBACK, "type", "bug", "type"),
    (FEEDBACK, "path", "search", "path"),
    (FEEDBACK, "version", "v" * 101, "version"),
    (FEEDBACK, "metadata", {f"k{i}": i for i in range(21)}, "metadata"),
    (FEEDBACK, "metadata", {"nps": "x" * 501}, "metadata"),
    (FEEDBACK, "metadata", {"nps": [9]}, "metadata"),
    (FEEDBACK, "metadata", 9, "metadata"),
    (FEEDBACK, "submitted_by", "a b", "submitted_by"),
    (FEEDBACK, "website", 1, "website"),
    (FEEDBACK, "metadata", {f"k{i}": i for i in range(21)}, "metadata"),
    (FEEDBACK, "metadata", {"nps": [9]}, "metadata"),
    (FEEDBACK, "metadata", {"note": "x" * 501}, "metadata"),
    (CONTACT, "project_key", "zzz", "project_key"),
    (CONTACT, "name", DROP, "name"),
    (CONTACT, "name", "", "name"),
    (CONTACT, "name", "n" * 201, "name"),
    (CONTACT, "email", DROP, "email"),
    (CONTACT, "email", "ada", "email"),
    (CONTACT, "email", "ada@example", "email"),
    (CONTACT, "email", "a" * 310 + "@example.com", "email"),
    (CONTACT, "email", "help@victim.example?bcc=attacker%40evil.test&body=Hi", "email"),
    (CONTACT, "email", "ann&bob@example.com", "email"),
    (CONTACT, "email", "ann smith@example.com", "email"),
    (CONTACT, "email", "ann@example.com\n", "email"),
    (CONTACT, "email", "<ann@example.com>", "email"),
    (CONTACT, "message", DROP, "message"),
    (CONTACT, "message", "hi", "message"),
    (CONTACT, "message", "m" * 2001, "message"),
    (CONTACT, "subject", "s" * 201, "subject"),
    (CONTACT, "path", "billing", "path"),
    (CONTACT, "version", "v" * 101, "version"),
    (RATING, "version", "1\u0000", "version"),
    (TYPED, "context.metadata", {"note": "a\u0000b"}, "context.metadata"),
    (FEEDBACK, "message", "hello\u0000there", "message"),
    (CONTACT, "name", "Ada\u0000", "name"),
]


def _set(body: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    body = deepcopy(body)
    *parents, last = dotted.split(".")
    target = body
    for name in parents:
        target = target[name]
    if value is DROP:
        del target[last]
    else:
        target[last] = value
    return body


@pytest.mark.parametrize(("endpoint", "field", "value", "named"), CASES)
async def test_invalid_field_is_400_naming_it(
    client: AsyncTestClient, tenant: Tenant, endpoint: str, field: str, value: Any, named: str
) -> None:
    body = _set(valid_bodies(tenant.project_key)[endpoint], field, value)
    response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["error"] == "invalid_request"
    assert named in answer["details"]


async def test_refused_bodies_store_nothing(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    bodies = valid_bodies(tenant.project_key)
    for endpoint, field, value, _ in CASES:
        response = await client.post(endpoint, json=_set(bodies[endpoint], field, value))
        assert response.status_code == 400
    assert await stored_rows(session_maker) == 0


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_malformed_json_and_non_object_bodies_are_400(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    for content in (b"{not json", b"[]", b"null", b""):
        response = await client.post(endpoint, content=content, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, (content, response.text)
        assert response.json()["error"] == "invalid_request"


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_unknown_project_key_is_404(client: AsyncTestClient, tenant: Tenant, endpoint: str) -> None:
    body = valid_bodies("6b0f1b7e-6a51-4c0e-9a55-1d2f3e4a5b6c")[endpoint]
    response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "details": "project_key: no project has this key"}


async def test_the_project_id_is_not_a_project_key(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_id)[RATING]
    assert (await client.post(RATING, json=body)).status_code == 404


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_bodies_over_64_kib_are_413_and_store_nothing(
    client: AsyncTestClient, tenant: Tenant, endpoint: str, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)[endpoint]
    padded = ('{"padding": "' + "x" * 65 * 1024 + '", ' + str(body)[1:]).encode()
    response = await client.post(endpoint, content=padded, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "payload_too_large"
    assert await stored_rows(session_maker) == 0
