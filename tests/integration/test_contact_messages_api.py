"""Contact messages read back through the REST API: list, search, read, archive."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from tenants.scope import operator_scope
from tests.factories import Tenant


def messages_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/contact-messages{suffix}"


async def store(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, **fields: Any
) -> ContactMessage:
    values = {"name": "Ada", "email": "ada@example.org", "message": "Hello there", **fields}
    async with unit_of_work(session_maker) as session:
        return await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            **values
        )


async def listed_ids(client: AsyncTestClient, tenant: Tenant, query: str = "") -> list[str]:
    response = await client.get(messages_url(tenant, query), headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    return [m["id"] for m in response.json()["contact_messages"]]


async def test_get_returns_every_stored_field(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    record = await store(session_maker, tenant, subject="Invoice", path="/billing", version="3.0")
    response = await client.get(messages_url(tenant, f"/{record.id}"), headers=tenant.read_headers)
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "id": str(record.id),
        "project_id": tenant.project_id,
        "name": "Ada",
        "email": "ada@example.org",
        "subject": "Invoice",
        "message": "Hello there",
        "path": "/billing",
        "version": "3.0",
        "created_at": body["created_at"],
        "archived": False,
        "submitted_by_verified": False,
        "spam": False,
        "status": "Open",
    }
    assert body["created_at"].endswith("Z")


async def test_unset_optional_fields_are_omitted(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    record = await store(session_maker, tenant)
    body = (await client.get(messages_url(tenant, f"/{record.id}"), headers=tenant.headers)).json()
    assert "subject" not in body and "path" not in body and "version" not in body


async def test_list_newest_first_with_pagination(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    ids = [str((await store(session_maker, tenant, message=f"message {n}")).id) for n in range(3)]
    response = await client.get(messages_url(tenant, "?limit=2"), headers=tenant.headers)
    body = response.json()
    assert [m["id"] for m in body["contact_messages"]] == [ids[2], ids[1]]
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 3, "total_pages": 2}
    assert await listed_ids(client, tenant, "?limit=2&page=2") == [ids[0]]
    assert await listed_ids(client, tenant, "?page=3&limit=2") == []


async def test_search_covers_name_email_subject_and_message(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    by_name = await store(session_maker, tenant, name="Grace Hopper")
    by_email = await store(session_maker, tenant, email="billing@acme.test")
    by_subject = await store(session_maker, tenant, subject="Refund request")
    by_message = await store(session_maker, tenant, message="50% off did not work")
    assert await listed_ids(client, tenant, "?search=hopper") == [str(by_name.id)]
    assert await listed_ids(client, tenant, "?search=ACME") == [str(by_email.id)]
    assert await listed_ids(client, tenant, "?search=refund") == [str(by_subject.id)]
    assert await listed_ids(client, tenant, "?search=%25") == [str(by_message.id)]
    assert await listed_ids(client, tenant, "?search=zzz") == []


async def test_delete_archives_idempotently(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    record = await store(session_maker, tenant)
    kept = await store(session_maker, tenant, name="Kept")
    path = messages_url(tenant, f"/{record.id}")
    for _ in range(2):
        response = await client.delete(path, headers=tenant.headers)
        assert response.status_code == 204
        assert response.content == b""
    assert await listed_ids(client, tenant) == [str(kept.id)]
    assert await listed_ids(client, tenant, "?archived=true") == [str(record.id)]
    assert (await client.get(path, headers=tenant.headers)).json()["archived"] is True


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page=0", "page"),
        ("page=" + "9" * 30, "page"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("archived=2", "archived"),
        ("search=" + "q" * 201, "search"),
    ],
)
async def test_list_refuses_bad_parameters(
    client: AsyncTestClient, tenant: Tenant, query: str, field: str
) -> None:
    response = await client.get(messages_url(tenant, f"?{query}"), headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["details"].startswith(f"{field}:")


async def test_unknown_and_malformed_ids(client: AsyncTestClient, tenant: Tenant) -> None:
    missing = messages_url(tenant, "/0190b2b4-0000-7000-8000-000000000000")
    assert (await client.get(missing, headers=tenant.headers)).status_code == 404
    assert (await client.delete(missing, headers=tenant.headers)).status_code == 404
    bad = await client.get(messages_url(tenant, "/nope"), headers=tenant.headers)
    assert bad.status_code == 400
    assert bad.json()["details"].startswith("message_id:")


async def test_read_token_may_not_archive(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    record = await store(session_maker, tenant)
    response = await client.delete(messages_url(tenant, f"/{record.id}"), headers=tenant.read_headers)
    assert response.status_code == 403
    assert await listed_ids(client, tenant) == [str(record.id)]
