"""Tenant models, one per file."""

from tenants.models.access_token import AccessToken, TokenScope
from tenants.models.invitation import Invitation
from tenants.models.membership import Membership, Role
from tenants.models.organization import Organization
from tenants.models.password_reset import PasswordReset
from tenants.models.user import User

__all__ = [
    "AccessToken",
    "Invitation",
    "Membership",
    "Organization",
    "PasswordReset",
    "Role",
    "TokenScope",
    "User",
]
