"""Invitations to join an organization: a one-time link, mailed and shown once to the owner who invites,
good for 7 days. Sending it again draws a new link (the old one stops working) and another 7 days. Only
acceptance from the mailed link confirms the address (the owner has seen the other).

Only the SHA-256 digest of the link's secret is stored, as for access tokens.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Invitation, Membership, Organization, User
from app.errors import InvalidRequest, NotFound
from app.timestamps import utc_now
from tenants.members import Members, check_role
from tenants.organizations import check_email, check_password
from tenants.passwords import hash_password, verify_password
from tenants.scope import OrgScope, OrgScoped, operator_scope
from tenants.token_format import token_digest

INVITATION_LIFETIME = timedelta(days=7)


@dataclass(frozen=True)
class IssuedInvitation:
    record: Invitation
    secret: str
    """The value in the link: returned once, never stored."""


@dataclass(frozen=True)
class OpenInvitation:
    record: Invitation
    organization: Organization
    has_account: bool


class Invitations(OrgScoped):
    """Invitations of one organization."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        super().__init__(session, scope)
        self.org_id = scope.org_id

    def issue(self, *, email: str, role: str, created_by: UUID | None) -> IssuedInvitation:
        """Add a new invitation to the caller's transaction."""
        secret = secrets.token_urlsafe(32)
        record = Invitation(
            org_id=self.org_id,
            email=check_email(email),
            role=check_role(role).value,
            token_digest=token_digest(secret),
            expires_at=utc_now() + INVITATION_LIFETIME,
            created_by=created_by,
        )
        self.session.add(record)
        return IssuedInvitation(record=record, secret=secret)

    async def renew(self, invitation_id: UUID) -> IssuedInvitation:
        """A new link for an invitation not yet accepted, good for another 7 days; the old link stops
        working. In the caller's transaction."""
        record = await self._get(invitation_id)
        if record.accepted_at is not None:
            raise NotFound("no such invitation in this organization")
        secret = secrets.token_urlsafe(32)
        record.token_digest = token_digest(secret)
        record.expires_at = utc_now() + INVITATION_LIFETIME
        return IssuedInvitation(record=record, secret=secret)

    async def pending(self) -> list[Invitation]:
        """Invitations not accepted yet, expired ones too (they can be sent again)."""
        result = await self.session.scalars(
            select(Invitation)
            .where(Invitation.org_id == self.org_id, Invitation.accepted_at.is_(None))
            .order_by(Invitation.created_at.desc())
        )
        return list(result)

    async def cancel(self, invitation_id: UUID) -> None:
        await self.session.delete(await self._get(invitation_id))
        await self.session.flush()

    async def _get(self, invitation_id: UUID) -> Invitation:
        record = await self.session.scalar(
            select(Invitation).where(Invitation.org_id == self.org_id, Invitation.id == invitation_id)
        )
        if record is None:
            raise NotFound("no such invitation in this organization")
        return record


async def open_invitation(session: AsyncSession, secret: str) -> OpenInvitation:
    """The unused, unexpired invitation behind a link; 404 otherwise (whatever the reason)."""
    record = await session.scalar(select(Invitation).where(Invitation.token_digest == token_digest(secret)))
    if record is None or record.accepted_at is not None or record.expires_at <= utc_now():
        raise NotFound("this invitation link is unknown, used or expired")
    org = await session.get(Organization, record.org_id)
    if org is None:
        raise NotFound("this invitation link is unknown, used or expired")
    user = await session.scalar(select(User).where(User.email == record.email))
    return OpenInvitation(record=record, organization=org, has_account=user is not None)


async def accept_invitation(
    session: AsyncSession, secret: str, password: str, *, confirms_address: bool
) -> tuple[User, Membership, bool]:
    """Join the invited email's account (its password proves it) or create it with this password; also
    whether the account is new. `confirms_address` when the link is known to have reached the address
    (the mailed one): the account's address counts as confirmed; never from a link the inviter has seen."""
    invitation = await open_invitation(session, secret)
    record = invitation.record
    user = await session.scalar(select(User).where(User.email == record.email))
    created = user is None
    if user is None:
        check_password(password)
        user = User(email=record.email, password_hash=await hash_password(password))
        session.add(user)
    elif not await verify_password(user.password_hash, password):
        raise InvalidRequest("password", "is not the password of this account")
    if confirms_address and user.email_verified_at is None:
        user.email_verified_at = utc_now()
    await session.flush()
    record.accepted_at = utc_now()
    joining = operator_scope(record.org_id, actor=record.email)  # the invitation is the permission
    membership = await Members(session, joining).add(user.id, record.role)
    await session.flush()
    return user, membership, created
