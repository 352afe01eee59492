"""Every model, re-exported so that migrations and services import from one place."""

from app.db.models.contact_message import ContactMessage
from app.db.models.feedback_change import FeedbackChange
from app.db.models.feedback_counter import FeedbackCounter
from app.db.models.feedback_item import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType
from app.db.models.project import Project
from app.db.models.rating import Rating, RatingType
from app.db.models.rating_counter import ALL_PATHS, RatingCounter
from app.db.models.rating_total import RatingTotal
from tenants.models import AccessToken, Invitation, Membership, Organization, Role, TokenScope, User

__all__ = [
    "ALL_PATHS",
    "AccessToken",
    "ContactMessage",
    "FeedbackChange",
    "FeedbackCounter",
    "FeedbackItem",
    "FeedbackSource",
    "FeedbackStatus",
    "FeedbackType",
    "Invitation",
    "Membership",
    "Organization",
    "Project",
    "Rating",
    "RatingCounter",
    "RatingTotal",
    "RatingType",
    "Role",
    "TokenScope",
    "User",
]
