"""Arrange tenants through the application's own services (no hand-written rows)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Organization, Project
from app.db.transactions import unit_of_work
from app.services.projects import Projects
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope

DEFAULT_ORIGINS = ("https://site.example",)


@dataclass
class Tenant:
    org_id: UUID
    token: str
    read_token: str
    project: Project

    @property
    def headers(self) -> dict[str, str]:
        return {"X-API-Key": self.token}

    @property
    def read_headers(self) -> dict[str, str]:
        return {"X-API-Key": self.read_token}

    @property
    def project_id(self) -> str:
        return str(self.project.id)

    @property
    def project_key(self) -> str:
        return str(self.project.key)


async def make_tenant(
    session_maker: async_sessionmaker[AsyncSession],
    *,
    name: str = "Org",
    origins: tuple[str, ...] = DEFAULT_ORIGINS,
) -> Tenant:
    """An organization with a write token, a read token and one project."""
    async with unit_of_work(session_maker) as session:
        org = Organization(name=name)
        session.add(org)
        await session.commit()
        tokens = AccessTokens(session, operator_scope(org.id))
        write = await tokens.create(label="write", scope="write")
        read = await tokens.create(label="read", scope="read")
        scope = operator_scope(org.id, "tests")
        project = await Projects(session, scope).create(name=f"{name} docs", allowed_origins=list(origins))
        return Tenant(org_id=org.id, token=write.token, read_token=read.token, project=project)


async def add_project(
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    *,
    name: str,
    origins: tuple[str, ...] = (),
) -> Project:
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id, "tests")
        return await Projects(session, scope).create(name=name, allowed_origins=list(origins))
