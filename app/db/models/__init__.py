"""Every model, re-exported so that migrations and services import from one place."""

from app.db.models.access_token import AccessToken, TokenScope
from app.db.models.alert import Alert
from app.db.models.alert_watch import AlertWatch
from app.db.models.attachment_usage import AttachmentUsage
from app.db.models.audit_entry import AuditEntry
from app.db.models.connected_app import ConnectedApp
from app.db.models.contact_message import ContactMessage, ContactStatus
from app.db.models.contact_reply import ContactReply
from app.db.models.conversation import Conversation, SubjectKind
from app.db.models.conversation_message import ConversationMessage, Sender
from app.db.models.feedback_attachment import FeedbackAttachment
from app.db.models.feedback_change import FeedbackChange
from app.db.models.feedback_counter import FeedbackCounter
from app.db.models.feedback_embedding import FeedbackEmbedding
from app.db.models.feedback_import import FeedbackImport
from app.db.models.feedback_item import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType
from app.db.models.feedback_reward import FeedbackReward
from app.db.models.invitation import Invitation
from app.db.models.linked_issue import LinkedIssue
from app.db.models.membership import Membership, Role
from app.db.models.mintlify_integration import MintlifyIntegration
from app.db.models.notification_digest import NotificationDigest
from app.db.models.notification_event import NotificationEvent
from app.db.models.notification_setting import Frequency, NotificationSetting
from app.db.models.oauth_authorization import OAuthAuthorization
from app.db.models.oauth_client import OAuthClient
from app.db.models.organization import Organization
from app.db.models.outbound_email import OutboundEmail
from app.db.models.outbox_job import JobStatus, OutboxJob
from app.db.models.passkey import Passkey
from app.db.models.password_reset import PasswordReset
from app.db.models.polar_integration import PolarIntegration
from app.db.models.project import Project
from app.db.models.project_insight import ProjectInsight
from app.db.models.rating import Rating, RatingType
from app.db.models.rating_counter import ALL_PATHS, NO_REASON, NO_VERSION, REASON_LENGTH, RatingCounter
from app.db.models.rating_total import RatingTotal
from app.db.models.recovery_code import RecoveryCode
from app.db.models.reporter_address import ReporterAddress
from app.db.models.saml_assertion import SamlAssertion
from app.db.models.scim_token import ScimToken
from app.db.models.scim_user import ScimUser
from app.db.models.sso_connection import SsoConnection, SsoDomain
from app.db.models.stripe_integration import StripeIntegration
from app.db.models.survey import Survey, SurveyDisplay, SurveyStatus
from app.db.models.survey_answer_vector import SurveyAnswerVector
from app.db.models.survey_counter import ANSWERED, SURVEY_TOTALS, SurveyCounter
from app.db.models.survey_link import SurveyLink
from app.db.models.survey_response import SurveyResponse
from app.db.models.theme import Theme
from app.db.models.totp_authenticator import TotpAuthenticator
from app.db.models.tracker_integration import TrackerIntegration, TrackerKind
from app.db.models.user import User
from app.db.models.webhook_attempt import WebhookAttempt
from app.db.models.webhook_delivery import WebhookDelivery
from app.db.models.webhook_endpoint import WebhookEndpoint, WebhookFormat

__all__ = [
    "ALL_PATHS",
    "ANSWERED",
    "NO_REASON",
    "NO_VERSION",
    "REASON_LENGTH",
    "SURVEY_TOTALS",
    "AccessToken",
    "Alert",
    "AlertWatch",
    "AttachmentUsage",
    "AuditEntry",
    "ConnectedApp",
    "ContactMessage",
    "ContactReply",
    "ContactStatus",
    "Conversation",
    "ConversationMessage",
    "FeedbackAttachment",
    "FeedbackChange",
    "FeedbackCounter",
    "FeedbackEmbedding",
    "FeedbackImport",
    "FeedbackItem",
    "FeedbackReward",
    "FeedbackSource",
    "FeedbackStatus",
    "FeedbackType",
    "Frequency",
    "Invitation",
    "JobStatus",
    "LinkedIssue",
    "Membership",
    "MintlifyIntegration",
    "NotificationDigest",
    "NotificationEvent",
    "NotificationSetting",
    "OAuthAuthorization",
    "OAuthClient",
    "Organization",
    "OutboundEmail",
    "OutboxJob",
    "Passkey",
    "PasswordReset",
    "PolarIntegration",
    "Project",
    "ProjectInsight",
    "Rating",
    "RatingCounter",
    "RatingTotal",
    "RatingType",
    "RecoveryCode",
    "ReporterAddress",
    "Role",
    "SamlAssertion",
    "ScimToken",
    "ScimUser",
    "Sender",
    "SsoConnection",
    "SsoDomain",
    "StripeIntegration",
    "SubjectKind",
    "Survey",
    "SurveyAnswerVector",
    "SurveyCounter",
    "SurveyDisplay",
    "SurveyLink",
    "SurveyResponse",
    "SurveyStatus",
    "Theme",
    "TokenScope",
    "TotpAuthenticator",
    "TrackerIntegration",
    "TrackerKind",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookFormat",
]
