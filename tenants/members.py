"""Members of one organization and their roles. An organization always keeps at least one owner.

Demoting or removing an owner happens in one conditional statement ("only while another owner remains"),
after locking the organization's row: two owners demoting each other at once are serialized by the lock
on PostgreSQL, and by SQLite's single writer evaluating the condition when the statement runs, so one of
them is refused instead of both succeeding on counts read before either wrote."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy import Delete, Update, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Membership, Organization, Role, User
from app.db.tracked_session import note_directory_change
from app.errors import InvalidRequest, NotFound
from tenants.scope import OrgScope, OrgScoped


def check_role(role: str) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise InvalidRequest("role", "must be owner, admin or member") from None


@dataclass(frozen=True)
class Member:
    membership_id: UUID
    user_id: UUID
    email: str
    role: str
    joined_at: datetime


class Members(OrgScoped):
    """Memberships of one organization; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        super().__init__(session, scope)
        self.org_id = scope.org_id

    async def list(self) -> list[Member]:
        rows = await self.session.execute(
            select(Membership, User.email)
            .join(User, User.id == Membership.user_id)
            .where(Membership.org_id == self.org_id)
            .order_by(Membership.created_at, Membership.id)
        )
        return [Member(m.id, m.user_id, email, m.role, m.created_at) for m, email in rows.tuples()]

    async def get(self, membership_id: UUID) -> Membership:
        membership = await self.session.scalar(
            select(Membership).where(Membership.org_id == self.org_id, Membership.id == membership_id)
        )
        if membership is None:
            raise NotFound("no such member in this organization")
        return membership

    async def add(self, user_id: UUID, role: str) -> Membership:
        """Join a user to the organization (an existing membership keeps its role), in the caller's
        transaction."""
        existing = await self.session.scalar(
            select(Membership).where(Membership.org_id == self.org_id, Membership.user_id == user_id)
        )
        if existing is not None:
            return existing
        membership = Membership(org_id=self.org_id, user_id=user_id, role=check_role(role).value)
        self.session.add(membership)
        await self.session.flush()
        return membership

    async def change_role(self, membership_id: UUID, role: str) -> Membership:
        new_role = check_role(role)
        membership = await self.get(membership_id)
        if membership.role == Role.OWNER and new_role != Role.OWNER:
            await self._unless_last_owner(membership, update(Membership).values(role=new_role.value))
        membership.role = new_role.value
        await self.session.flush()
        return membership

    async def remove(self, membership_id: UUID) -> None:
        membership = await self.get(membership_id)
        if membership.role == Role.OWNER:
            await self._unless_last_owner(membership, delete(Membership))
        else:
            await self.session.delete(membership)
        await self.session.flush()

    async def _unless_last_owner(self, membership: Membership, statement: Update | Delete) -> None:
        await self.session.execute(
            select(Organization.id).where(Organization.id == self.org_id).with_for_update()
        )
        other_owners = (
            select(func.count())
            .select_from(Membership)
            .where(
                Membership.org_id == self.org_id,
                Membership.role == Role.OWNER.value,
                Membership.id != membership.id,
            )
            .scalar_subquery()
        )
        result = await self.session.execute(
            statement.where(
                Membership.id == membership.id, Membership.org_id == self.org_id, other_owners > 0
            ).execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise InvalidRequest("role", "the organization must keep at least one owner")
        note_directory_change(self.session)  # the member's connected apps act with the new role or none
        if isinstance(statement, Delete):
            self.session.expunge(membership)
