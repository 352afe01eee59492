"""Who is signed in to the console: the session names a user and an organization; every request checks
the membership still exists (a removed member is out at once) and resolves the same OrgScope the API uses.

A session also holds a stamp of the user's password hash from sign-in. Changing the password, or "Log out
other sessions" (which hashes the same password anew), changes the hash, so every other session's stamp
stops matching and it is signed out on its next request; the session that made the change gets the new
stamp."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers import BaseRouteHandler
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.sessions import derived_secret
from app.errors import Forbidden
from tenants.actor import current_actor
from tenants.members import role_at_least
from tenants.models import Membership, Organization, Role, User
from tenants.scope import OrgScope

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_STAMP_PURPOSE = "session-stamp"
ROLE_NAMES = {Role.OWNER: "an owner", Role.ADMIN: "an owner or admin", Role.MEMBER: "a member"}


@dataclass(frozen=True, slots=True)
class ConsoleUser:
    user_id: UUID
    email: str
    org_id: UUID
    org_name: str
    role: str
    session_stamp: str = field(default="", repr=False)
    language: str = "en"
    """The language of the mail this user receives."""
    email_confirmed: bool = True
    """The address was confirmed by a mailed link (or mail is not sent at all); until then the user may
    neither invite nor create tokens."""

    def can(self, needed: Role) -> bool:
        return role_at_least(self.role, needed)

    @property
    def is_admin(self) -> bool:
        return self.can(Role.ADMIN)

    @property
    def is_owner(self) -> bool:
        return self.can(Role.OWNER)


def console_scope(user: ConsoleUser) -> OrgScope:
    """Owners and admins may change the organization's configuration; every role may triage."""
    return OrgScope(org_id=user.org_id, actor=user.email, can_write=user.is_admin)


def session_stamp(secret: str, password_hash: str) -> str:
    return hmac.new(secret.encode(), password_hash.encode(), hashlib.sha256).hexdigest()[:32]


async def load_console_user(
    session: AsyncSession, user_id: UUID, org_id: UUID, secret: str, *, mail_sent: bool = False
) -> ConsoleUser | None:
    row = (
        await session.execute(
            select(
                User.email,
                User.password_hash,
                User.language,
                User.email_verified_at,
                Organization.name,
                Membership.role,
            )
            .join(Membership, Membership.user_id == User.id)
            .join(Organization, Organization.id == Membership.org_id)
            .where(User.id == user_id, Membership.org_id == org_id)
        )
    ).first()
    if row is None:
        return None
    return ConsoleUser(
        user_id=user_id,
        email=row.email,
        org_id=org_id,
        org_name=row.name,
        role=row.role,
        session_stamp=session_stamp(secret, row.password_hash),
        language=row.language,
        email_confirmed=row.email_verified_at is not None or not mail_sent,
    )


class ConsoleAuthentication(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        data = connection.scope.get("session")
        try:
            user_id = UUID(data["user_id"])  # type: ignore[index]
            org_id = UUID(data["org_id"])  # type: ignore[index]
        except (KeyError, TypeError, ValueError):
            raise NotAuthorizedException("sign in first") from None
        session_maker: async_sessionmaker[AsyncSession] = connection.app.state.session_maker
        secret = derived_secret(connection.app.state.settings, SESSION_STAMP_PURPOSE)
        async with session_maker() as session:
            user = await load_console_user(
                session, user_id, org_id, secret, mail_sent=connection.app.state.settings.sends_mail
            )
        if user is None:
            connection.clear_session()
            raise NotAuthorizedException("this account is no longer a member of that organization")
        if not hmac.compare_digest(str(data.get("stamp", "")), user.session_stamp):  # type: ignore[union-attr]
            connection.clear_session()
            raise NotAuthorizedException("the password changed or other sessions were logged out")
        current_actor.set(user.email)
        return AuthenticationResult(user=user, auth=console_scope(user))


async def console_role_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """The console's one permission rule: reads need any role, changes need an admin unless the
    handler names the role it needs (opt min_role); a handler with opt confirmed_email also needs a
    confirmed address (inviting, creating tokens: what a throwaway sign-up could abuse)."""
    if handler.opt.get("exclude_from_auth"):
        return
    user = connection.scope.get("user")
    if not isinstance(user, ConsoleUser):
        raise NotAuthorizedException("sign in first")
    method = connection.scope.get("method", "GET")
    needed = handler.opt.get("min_role") or (Role.MEMBER if method in READ_METHODS else Role.ADMIN)
    if not user.can(needed):
        raise Forbidden(f"only {ROLE_NAMES[needed]} can do this; your role is {user.role}")
    if handler.opt.get("confirmed_email") and not user.email_confirmed:
        raise Forbidden("confirm your email address first: follow the link we mailed to you")
