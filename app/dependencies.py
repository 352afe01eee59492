"""Dependencies the API and the console share: the services of the request's organization and project,
built the same way for both (from the request's `OrgScope`) so that the console cannot do what the API
would refuse. A new organization service gets its provider here."""

from __future__ import annotations

from typing import Any

from litestar import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.service import Alerts
from app.config import Settings
from app.db.models import Project
from app.db.secret_box import secret_box
from app.integrations.mintlify_integrations import MintlifyIntegrations
from app.integrations.stripe_integrations import StripeIntegrations
from app.integrations.tracker_integrations import TrackerIntegrations
from app.services.attachments import FeedbackAttachments
from app.services.audit_log import AuditLog
from app.services.contact_messages import ContactMessages
from app.services.contact_replies import ContactReplies
from app.services.erasure import Erasure
from app.services.feedback_items import FeedbackItems
from app.services.insights import Insights
from app.services.projects import Projects
from app.services.ratings import Ratings
from app.webhooks.endpoints import WebhookEndpoints
from tenants.access_tokens import AccessTokens
from tenants.connected_apps import ConnectedApps
from tenants.invitations import Invitations
from tenants.members import Members
from tenants.scope import OrgScope


def request_settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def provide_projects(db_session: AsyncSession, org_scope: OrgScope) -> Projects:
    return Projects(db_session, org_scope)


async def provide_members(db_session: AsyncSession, org_scope: OrgScope) -> Members:
    return Members(db_session, org_scope)


async def provide_invitations(db_session: AsyncSession, org_scope: OrgScope) -> Invitations:
    return Invitations(db_session, org_scope)


async def provide_access_tokens(db_session: AsyncSession, org_scope: OrgScope) -> AccessTokens:
    return AccessTokens(db_session, org_scope)


async def provide_connected_apps(db_session: AsyncSession, org_scope: OrgScope) -> ConnectedApps:
    return ConnectedApps(db_session, org_scope)


async def provide_audit_log(db_session: AsyncSession, org_scope: OrgScope) -> AuditLog:
    return AuditLog(db_session, org_scope)


async def provide_erasure(db_session: AsyncSession, org_scope: OrgScope) -> Erasure:
    return Erasure(db_session, org_scope)


async def provide_webhooks(
    request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope
) -> WebhookEndpoints:
    return WebhookEndpoints(db_session, org_scope, request_settings(request))


async def provide_feedback_items(
    db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> FeedbackItems:
    return FeedbackItems(db_session, org_scope, project)


async def provide_feedback_attachments(
    db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> FeedbackAttachments:
    return FeedbackAttachments(db_session, org_scope, project)


async def provide_contact_messages(
    db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> ContactMessages:
    return ContactMessages(db_session, org_scope, project)


async def provide_contact_replies(
    request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> ContactReplies:
    return ContactReplies(db_session, org_scope, project, request_settings(request))


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


async def provide_trackers(
    request: Request[Any, Any, Any], db_session: AsyncSession, org_scope: OrgScope, project: Project
) -> TrackerIntegrations:
    settings = request_settings(request)
    return TrackerIntegrations(db_session, org_scope, project, secret_box(settings.secret_key), settings)


async def provide_insights(db_session: AsyncSession, org_scope: OrgScope, project: Project) -> Insights:
    return Insights(db_session, org_scope, project)


async def provide_alerts(db_session: AsyncSession, org_scope: OrgScope, project: Project) -> Alerts:
    return Alerts(db_session, org_scope, project)
