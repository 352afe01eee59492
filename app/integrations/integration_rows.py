"""The one integration row of a kind that a project may have (Stripe, Polar, Mintlify): found,
required or removed the same way, within the project the request's scope allows."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import MintlifyIntegration, PolarIntegration, Project, StripeIntegration
from app.db.secret_box import secret_box
from app.errors import NotFound
from app.services.projects import ProjectScoped
from tenants.scope import OrgScope

Row = TypeVar("Row", StripeIntegration, MintlifyIntegration, PolarIntegration)


class IntegrationRows(ProjectScoped, Generic[Row]):
    model: ClassVar[type[StripeIntegration] | type[MintlifyIntegration] | type[PolarIntegration]]
    name: ClassVar[str]
    """As the 404 names it: "this project has no <name> integration"."""

    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.box = secret_box(settings.secret_key)
        self.settings = settings

    async def find(self) -> Row | None:
        found: Row | None = await self.session.scalar(
            select(self.model).where(self.model.project_id == self.project.id)
        )
        return found

    async def get(self) -> Row:
        integration = await self.find()
        if integration is None:
            raise NotFound(f"this project has no {self.name} integration")
        return integration

    async def remove(self) -> None:
        """Forget the integration; what it imported stays. Removing twice is fine."""
        integration = await self.find()
        if integration is not None:
            await self.session.delete(integration)
            await self.session.flush()
