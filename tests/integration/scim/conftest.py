"""SCIM tests: an organization with a proven domain and a SCIM token, and a client that speaks SCIM."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest
from httpx import Response
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import SsoDomain
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tenants.scim_tokens import ScimTokens
from tenants.scope import operator_scope
from tests.factories import Tenant

SCIM_JSON = "application/scim+json"


@dataclass
class Scim:
    """A provider's view of one organization: its token, and requests made with it."""

    client: AsyncTestClient[Litestar]
    token: str
    org_id: UUID
    domain: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "Content-Type": SCIM_JSON, "Accept": SCIM_JSON}

    async def request(self, method: str, path: str, body: Any = None, **params: Any) -> Response:
        return await self.client.request(
            method, f"/scim/v2{path}", json=body, params=params or None, headers=self.headers
        )

    def user(self, local: str, **extra: Any) -> dict[str, Any]:
        return {
            "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
            "userName": f"{local}@{self.domain}",
            "active": True,
            **extra,
        }


async def scim_token(session_maker: async_sessionmaker[AsyncSession], org_id: UUID, domain: str) -> str:
    """The organization proves `domain` and creates a SCIM token, as its admins would in the console."""
    async with unit_of_work(session_maker) as session:
        session.add(SsoDomain(org_id=org_id, domain=domain, verified_at=utc_now()))
        issued = await ScimTokens(session, operator_scope(org_id)).create()
    return issued.token


async def provisioned(
    session_maker: async_sessionmaker[AsyncSession],
    client: AsyncTestClient[Litestar],
    org_id: UUID,
    domain: str,
) -> Scim:
    return Scim(client, await scim_token(session_maker, org_id, domain), org_id, domain)


@pytest.fixture
async def scim(
    session_maker: async_sessionmaker[AsyncSession], client: AsyncTestClient[Litestar], tenant: Tenant
) -> Scim:
    return await provisioned(session_maker, client, tenant.org_id, "acme.example")
