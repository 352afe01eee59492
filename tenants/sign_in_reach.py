"""Which of a member's organizations one sign-in may act in. A person can belong to several
organizations, each with its own sign-in policy, and every policy is checked against the organization
being acted on, never the one the session happened to start in:

- A sign-in through an organization's identity provider counts for that organization only: its provider
  vouches for the person there and nowhere else. Where that organization requires two-factor
  authentication, the member must have a factor set up, as its console requires.
- A sign-in with the account's own credentials (its password, then its second factor when it has one;
  or a passkey alone) counts in every organization of the member that does not require single sign-on
  of them (owners keep their password), and in one that requires two-factor authentication only when a
  second factor was given at that sign-in (or set up since, in the same session).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Membership, Organization, SsoConnection
from tenants.second_factors import has_second_factor
from tenants.single_sign_on import sso_required


@dataclass(frozen=True)
class SignIn:
    """How a session was signed in."""

    only_org_id: UUID | None = None
    """The one organization the session counts for: the one whose identity provider signed it in (or,
    for a session signed in before sign-ins were recorded, the one it was signed in to)."""
    second_factor: bool = False
    """A second factor was given at sign-in (a code, a recovery code, a passkey), or set up since."""


@dataclass(frozen=True)
class MemberOrganization:
    org_id: UUID
    name: str
    role: str


@dataclass(frozen=True)
class Reach:
    """A member's organizations, split by whether the sign-in counts there."""

    reached: list[MemberOrganization]
    out_of_reach: list[MemberOrganization]

    def allows(self, org_id: UUID) -> bool:
        return any(o.org_id == org_id for o in self.reached)


async def reach_of(session: AsyncSession, user_id: UUID, sign_in: SignIn) -> Reach:
    rows = await session.execute(
        select(
            Organization.id,
            Organization.name,
            Membership.role,
            Organization.require_two_factor,
            SsoConnection.require_sso,
            has_second_factor(Membership.user_id).label("has_factor"),
        )
        .join(Membership, Membership.org_id == Organization.id)
        .outerjoin(SsoConnection, SsoConnection.org_id == Organization.id)
        .where(Membership.user_id == user_id)
        .order_by(Organization.name, Organization.id)
    )
    reach = Reach([], [])
    for org_id, name, role, require_two_factor, require_sso, has_factor in rows.tuples():
        if sign_in.only_org_id is not None:
            counts = org_id == sign_in.only_org_id and (not require_two_factor or has_factor)
        else:
            counts = not sso_required(role, bool(require_sso)) and (
                not require_two_factor or sign_in.second_factor
            )
        (reach.reached if counts else reach.out_of_reach).append(MemberOrganization(org_id, name, role))
    return reach
