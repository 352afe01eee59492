"""Dependencies the API and the console share: the services of the request's organization and project,
built the same way for both so that the console cannot do what the API would refuse."""

from __future__ import annotations

from typing import Any

from litestar import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Project
from app.imports.mintlify_integrations import MintlifyIntegrations
from app.imports.secret_box import secret_box
from app.imports.stripe_integrations import StripeIntegrations
from app.services.projects import Projects
from tenants.scope import OrgScope


def request_settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def provide_projects(db_session: AsyncSession, org_scope: OrgScope) -> Projects:
    return Projects(db_session, org_scope)


async def provide_stripe(
    request: Request[Any, Any, Any], db_session: AsyncSession, project: Project
) -> StripeIntegrations:
    return StripeIntegrations(db_session, project, secret_box(request_settings(request).secret_key))


async def provide_mintlify(
    request: Request[Any, Any, Any], db_session: AsyncSession, project: Project
) -> MintlifyIntegrations:
    settings = request_settings(request)
    return MintlifyIntegrations(db_session, project, secret_box(settings.secret_key), settings)
