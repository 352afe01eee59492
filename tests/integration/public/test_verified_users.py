"""Verified users: a project's identity secret, shown once, and submissions whose submitted_by comes
signed with it. The signatures here are computed in the test, the way a site's backend would."""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, SUCCESS, valid_bodies

SECRET_SHAPE = re.compile(r"^ids_[A-Za-z0-9_-]{43}$")
ENDPOINTS = sorted(SUCCESS)
LISTS = {
    "/api/v1/rating/submit": "ratings",
    "/api/v1/ratings": "ratings/typed?type=star",
    "/api/v1/feedback/submit": "feedback",
    "/api/v1/contact/submit": "contact-messages",
}


def sign(secret: str, user_id: str) -> str:
    return hmac.new(secret.encode("utf-8"), user_id.encode("utf-8"), hashlib.sha256).hexdigest()


def signed_body(project_key: str, endpoint: str, user: str | None, signature: str | None) -> dict[str, Any]:
    body = valid_bodies(project_key)[endpoint]
    context = body["context"] if endpoint == "/api/v1/ratings" else body
    context.pop("submitted_by", None)
    if user is not None:
        context["submitted_by"] = user
    if signature is not None:
        context["user_signature"] = signature
    return body


async def new_secret(client: AsyncTestClient, tenant: Tenant) -> str:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    secret = response.json()["secret"]
    assert SECRET_SHAPE.match(secret)
    return str(secret)


async def listed(
    client: AsyncTestClient, tenant: Tenant, endpoint: str, query: str = ""
) -> list[dict[str, Any]]:
    path = LISTS[endpoint]
    joiner = "&" if "?" in path else "?"
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/{path}{joiner}{query}", headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    rows = (
        body["contact_messages"] if "contact_messages" in body else body.get("feedback", body.get("ratings"))
    )
    assert body["pagination"]["total"] == len(rows)
    return list(rows)


async def submit(client: AsyncTestClient, endpoint: str, body: dict[str, Any]) -> int:
    response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
    return response.status_code


@pytest.mark.parametrize("endpoint", ENDPOINTS)
async def test_a_signed_user_is_stored_verified_and_the_lists_filter_by_it(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    secret = await new_secret(client, tenant)
    key = tenant.project_key
    assert (
        await submit(client, endpoint, signed_body(key, endpoint, "user_42", sign(secret, "user_42")))
        == SUCCESS[endpoint]
    )
    assert (
        await submit(client, endpoint, signed_body(key, endpoint, "user_43", sign(secret, "user_42")))
        == SUCCESS[endpoint]
    )
    assert await submit(client, endpoint, signed_body(key, endpoint, None, None)) == SUCCESS[endpoint]

    rows = await listed(client, tenant, endpoint)
    assert {(row.get("submitted_by"), row["submitted_by_verified"]) for row in rows} == {
        ("user_42", True),
        ("user_43", False),
        (None, False),
    }
    assert [row["submitted_by"] for row in await listed(client, tenant, endpoint, "verified=true")] == [
        "user_42"
    ]
    assert len(await listed(client, tenant, endpoint, "verified=false")) == 2


async def test_a_rotated_secret_no_longer_verifies_the_old_signatures(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    endpoint = "/api/v1/feedback/submit"
    old = await new_secret(client, tenant)
    new = await new_secret(client, tenant)
    assert old != new
    await submit(client, endpoint, signed_body(tenant.project_key, endpoint, "old", sign(old, "old")))
    await submit(client, endpoint, signed_body(tenant.project_key, endpoint, "new", sign(new, "new")))
    verified = {
        row["submitted_by"]: row["submitted_by_verified"] for row in await listed(client, tenant, endpoint)
    }
    assert verified == {"old": False, "new": True}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
async def test_a_project_that_requires_verified_users_refuses_an_unsigned_or_wrongly_signed_user(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    secret = await new_secret(client, tenant)
    patched = await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"require_verified_users": True}, headers=tenant.headers
    )
    assert patched.status_code == 200 and patched.json()["require_verified_users"] is True
    key = tenant.project_key
    for signature in (None, sign(secret, "someone_else"), sign(secret, "user_42").upper(), "not hex"):
        response = await client.post(
            endpoint, json=signed_body(key, endpoint, "user_42", signature), headers={"Origin": ALLOWED}
        )
        assert response.status_code == 403, signature
        assert response.json()["error"] == "forbidden"
        assert response.json()["details"].startswith("user_signature: ")
    assert await listed(client, tenant, endpoint) == []

    assert await submit(client, endpoint, signed_body(key, endpoint, None, None)) == SUCCESS[endpoint]
    assert (
        await submit(client, endpoint, signed_body(key, endpoint, "user_42", sign(secret, "user_42")))
        == SUCCESS[endpoint]
    )
    assert len(await listed(client, tenant, endpoint, "verified=true")) == 1
    assert len(await listed(client, tenant, endpoint, "verified=false")) == 1


async def test_the_secret_is_shown_once_and_audited_without_its_value(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    secret = await new_secret(client, tenant)
    project = (await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)).json()
    assert project["has_identity_secret"] is True
    assert secret not in str(project)
    audit = await client.get("/api/v1/audit-log", headers=tenant.headers)
    assert audit.status_code == 200
    assert secret not in audit.text
    assert any(entry["details"].get("identity_secret") == "changed" for entry in audit.json()["entries"]), (
        audit.text
    )


async def test_a_read_token_cannot_create_a_secret(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.read_headers
    )
    assert response.status_code == 403
