"""Every model, re-exported so that migrations and services import from one place."""

from app.db.models.audit_entry import AuditEntry
from app.db.models.contact_message import ContactMessage
from app.db.models.feedback_change import FeedbackChange
from app.db.models.feedback_counter import FeedbackCounter
from app.db.models.feedback_import import FeedbackImport
from app.db.models.feedback_item import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType
from app.db.models.mintlify_integration import MintlifyIntegration
from app.db.models.notification_digest import NotificationDigest
from app.db.models.notification_event import NotificationEvent
from app.db.models.notification_setting import Frequency, NotificationSetting
from app.db.models.outbound_email import OutboundEmail
from app.db.models.outbox_job import JobStatus, OutboxJob
from app.db.models.project import Project
from app.db.models.rating import Rating, RatingType
from app.db.models.rating_counter import ALL_PATHS, NO_REASON, NO_VERSION, REASON_LENGTH, RatingCounter
from app.db.models.rating_total import RatingTotal
from app.db.models.stripe_integration import StripeIntegration
from app.db.models.webhook_attempt import WebhookAttempt
from app.db.models.webhook_delivery import WebhookDelivery
from app.db.models.webhook_endpoint import WebhookEndpoint, WebhookFormat
from tenants.models import (
    AccessToken,
    Invitation,
    Membership,
    Organization,
    PasswordReset,
    Role,
    TokenScope,
    User,
)

__all__ = [
    "ALL_PATHS",
    "NO_REASON",
    "NO_VERSION",
    "REASON_LENGTH",
    "AccessToken",
    "AuditEntry",
    "ContactMessage",
    "FeedbackChange",
    "FeedbackCounter",
    "FeedbackImport",
    "FeedbackItem",
    "FeedbackSource",
    "FeedbackStatus",
    "FeedbackType",
    "Frequency",
    "Invitation",
    "JobStatus",
    "Membership",
    "MintlifyIntegration",
    "NotificationDigest",
    "NotificationEvent",
    "NotificationSetting",
    "Organization",
    "OutboundEmail",
    "OutboxJob",
    "PasswordReset",
    "Project",
    "Rating",
    "RatingCounter",
    "RatingTotal",
    "RatingType",
    "Role",
    "StripeIntegration",
    "TokenScope",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookFormat",
]
