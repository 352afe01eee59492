"""X-API-Key: 401 for missing, malformed, unknown and revoked tokens."""

from __future__ import annotations

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import AccessToken
from app.db.transactions import unit_of_work
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope
from tenants.token_format import token_digest
from tests.factories import Tenant


@pytest.mark.parametrize(
    ("headers", "details"),
    [
        ({}, "X-API-Key header is missing"),
        ({"X-API-Key": "Bearer abc"}, "X-API-Key must be oat_ followed by 43 URL-safe characters"),
        ({"X-API-Key": "oat_" + "a" * 42}, "X-API-Key must be oat_ followed by 43 URL-safe characters"),
        ({"X-API-Key": "oat_" + "a" * 43}, "X-API-Key is unknown or revoked"),
    ],
)
async def test_bad_tokens_are_401(
    client: AsyncTestClient, tenant: Tenant, headers: dict[str, str], details: str
) -> None:
    response = await client.get("/api/v1/projects", headers=headers)
    assert response.status_code == 401
    assert response.json() == {"error": "unauthorized", "details": details}


async def test_revoked_token_is_refused_on_the_next_request(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    assert (await client.get("/api/v1/projects", headers=tenant.headers)).status_code == 200
    async with unit_of_work(session_maker) as session:
        tokens = AccessTokens(session, operator_scope(tenant.org_id))
        record = next(t for t in await tokens.list() if t.label == "write")
        await tokens.revoke(record.id)
    response = await client.get("/api/v1/projects", headers=tenant.headers)
    assert response.status_code == 401


async def test_deleted_token_is_refused(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        tokens = AccessTokens(session, operator_scope(tenant.org_id))
        record = next(t for t in await tokens.list() if t.label == "read")
        await tokens.delete(record.id)
    assert (await client.get("/api/v1/projects", headers=tenant.read_headers)).status_code == 401


async def test_use_records_last_used_and_stores_only_a_digest(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await client.get("/api/v1/projects", headers=tenant.headers)
    async with unit_of_work(session_maker) as session:
        tokens = await AccessTokens(session, operator_scope(tenant.org_id)).list()
    used = next(t for t in tokens if t.label == "write")
    assert used.last_used_at is not None
    assert used.token_digest == token_digest(tenant.token)
    assert used.prefix == tenant.token[:12]
    stored = [str(getattr(t, column.key, "")) for t in tokens for column in AccessToken.__table__.c]
    assert not any(tenant.token in value for value in stored)
