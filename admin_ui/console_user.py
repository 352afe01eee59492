"""Who is signed in to the console: the session names a user and an organization; every request checks
the membership still exists (a removed member is out at once) and resolves an OrgScope from the member's role.

A session also holds a stamp of the user's password hash from sign-in. Changing the password, or "Log out
other sessions" (which hashes the same password anew), changes the hash, so every other session's stamp
stops matching and it is signed out on its next request; the session that made the change gets the new
stamp.

A session also remembers the membership it was first used in. A member whose membership ends (removed, or
turned off by the organization's identity provider over SCIM) and is later given a new one does not get
their old sessions back: those name the old membership."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.sessions import derived_secret
from admin_ui.sign_in_record import recorded_sign_in
from app.db.actor import current_actor
from app.db.models import Membership, Organization, Role, User
from tenants.scope import ROLE_ACCESS, member_scope
from tenants.second_factors import has_second_factor
from tenants.sign_in_reach import SignIn

SESSION_STAMP_PURPOSE = "session-stamp"
MEMBERSHIP = "membership_id"


@dataclass(frozen=True, slots=True)
class ConsoleUser:
    user_id: UUID
    email: str
    org_id: UUID
    org_name: str
    role: str
    membership_id: UUID | None = None
    session_stamp: str = field(default="", repr=False)
    language: str = "en"
    """The language of the mail this user receives."""
    email_confirmed: bool = True
    """The address was confirmed by a mailed link (or mail is not sent at all); until then the user may
    neither invite nor create tokens."""
    org_requires_two_factor: bool = False
    needs_second_factor: bool = False
    """The organization requires two-factor authentication and this user has no factor yet: the console
    sends them to set one up before anything else (`admin_ui/two_factor_gate.py`)."""
    signed_in: SignIn = field(default_factory=SignIn)
    """How the session was signed in: which other organizations of the member it counts for."""

    def can(self, needed: Role) -> bool:
        """For what pages show; what a request may do is decided by tenants/permissions.py."""
        return ROLE_ACCESS[Role(self.role)] >= ROLE_ACCESS[needed]

    @property
    def is_admin(self) -> bool:
        return self.can(Role.ADMIN)

    @property
    def is_owner(self) -> bool:
        return self.can(Role.OWNER)


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
                Membership.id.label("membership_id"),
                Organization.require_two_factor,
                has_second_factor(User.id).label("has_second_factor"),
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
        membership_id=row.membership_id,
        session_stamp=session_stamp(secret, row.password_hash),
        language=row.language,
        email_confirmed=row.email_verified_at is not None or not mail_sent,
        org_requires_two_factor=row.require_two_factor,
        needs_second_factor=row.require_two_factor and not row.has_second_factor,
    )


async def session_member(connection: ASGIConnection[Any, Any, Any, Any]) -> ConsoleUser:
    """The member the session names, checked again on every request; NotAuthorizedException if none."""
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
    bound = data.setdefault(MEMBERSHIP, str(user.membership_id))  # type: ignore[union-attr]
    if bound != str(user.membership_id):
        connection.clear_session()
        raise NotAuthorizedException("this account's membership of that organization ended")
    signed_in = recorded_sign_in(data, org_id)  # type: ignore[arg-type]
    if signed_in.only_org_id not in (None, org_id):  # another organization's provider signed it in
        connection.clear_session()
        raise NotAuthorizedException("this session is not signed in to that organization")
    return replace(user, signed_in=signed_in)


class ConsoleAuthentication(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        user = await session_member(connection)
        current_actor.set(user.email)
        return AuthenticationResult(
            user=user,
            auth=member_scope(
                user.org_id, user.user_id, user.email, user.role, confirmed=user.email_confirmed
            ),
        )
