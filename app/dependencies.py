"""Dependencies the API and the console share: the services of the request's organization and project,
built the same way for both (from the request's `OrgScope`) so that the console cannot do what the API
would refuse. A new organization service gets its provider here."""

from __future__ import annotations

from typing import Any

from litestar import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Project
from app.imports.mintlify_integrations import MintlifyIntegrations
from app.imports.secret_box import secret_box
from app.imports.stripe_integrations import StripeIntegrations
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.services.projects import Projects
from app.services.ratings import Ratings
from tenants.scope import OrgScope


def request_settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def provide_projects(db_session: AsyncSession, org_scope: OrgScope) -> Projects:
    return Projects(db_session, org_scope)


async def provide_feedback_items(
    db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> FeedbackItems:
    return FeedbackItems(db_session, org_scope, project)


async def provide_contact_messages(
    db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> ContactMessages:
    return ContactMessages(db_session, org_scope, project)


async def provide_ratings(db_session: AsyncSession, org_scope: OrgScope, project: Project) -> Ratings:
    return Ratings(db_session, org_scope, project)


async def provide_stripe(
    request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> StripeIntegrations:
    return StripeIntegrations(
        db_session, org_scope, project, secret_box(request_settings(request).secret_key)
    )


async def provide_mintlify(
    request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> MintlifyIntegrations:
    settings = request_settings(request)
    return MintlifyIntegrations(db_session, org_scope, project, secret_box(settings.secret_key), settings)
