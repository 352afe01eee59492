"""The authenticated REST API under /api/v1: every route here needs an X-API-Key token."""

from __future__ import annotations

from litestar import Router
from litestar.di import Provide

from app.api.alerts import AlertController
from app.api.audit_log import audit_log
from app.api.churn import ChurnController
from app.api.contact_messages import ContactMessageController
from app.api.conversations import ConversationController
from app.api.dependencies import provide_project
from app.api.feedback import FeedbackController
from app.api.integrations import (
    MintlifyIntegrationController,
    PolarIntegrationController,
    StripeIntegrationController,
    TrackerIntegrationController,
)
from app.api.issues import IssueController
from app.api.members import list_members
from app.api.privacy import erase
from app.api.projects import ProjectController
from app.api.rating_stats import RatingStatsController
from app.api.ratings import RatingController
from app.api.surveys import SurveyController, lifecycle_event
from app.api.themes import ThemeController
from app.api.webhooks import WebhookController
from app.dependencies import provide
from app.services.projects import Projects
from tenants.api_key_auth import ApiKeyAuthentication
from tenants.permissions import access_guard, changes_need
from tenants.scope import Access, provide_org_scope

api_router = Router(
    path="/api/v1",
    route_handlers=[
        ProjectController,
        FeedbackController,
        ContactMessageController,
        ConversationController,
        RatingController,
        RatingStatsController,
        SurveyController,
        lifecycle_event,
        ThemeController,
        ChurnController,
        AlertController,
        WebhookController,
        StripeIntegrationController,
        PolarIntegrationController,
        MintlifyIntegrationController,
        TrackerIntegrationController,
        IssueController,
        audit_log,
        erase,
        list_members,
    ],
    middleware=[ApiKeyAuthentication],
    guards=[access_guard],
    opt=changes_need(Access.WRITE),
    dependencies={
        "org_scope": Provide(provide_org_scope),
        "projects": provide(Projects),
        "project": Provide(provide_project),
    },
    security=[{"ApiKey": []}],
)
