"""An organization's members as its identity provider sees them over SCIM: Users (every member, and the
users the provider turned off) and the role groups owner, admin and member.

Membership is what grants access. Turning a user off (active false) or deleting them ends their membership
in this organization, and with it every console session of theirs there (the console reads the membership
on each request) and their connected apps (revoked here, and refused by every node's token directory once
the cache generation moves at commit). Their account stays: it may belong to other organizations.

Users are created only at the organization's proven single sign-on domains, and an account's address
moves only between them: the provider manages the directory of those domains and no other. The last
owner cannot be turned off, deleted or moved out of the owner group: the organization must keep someone
who can manage it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ConnectedApp, Membership, Organization, Role, ScimUser, User
from app.db.row_locks import lock_rows
from app.errors import Conflict, InvalidRequest, NotFound
from app.timestamps import utc_now
from tenants.members import Members
from tenants.organizations import check_email
from tenants.scope import OrgScope
from tenants.single_sign_on import SSO_ONLY_PASSWORD, claims_domain

ROLE_GROUPS = tuple(role.value for role in Role)
"""The groups a provider may assign: each is a role."""
PROVIDER_PASSWORD = SSO_ONLY_PASSWORD
"""Accounts a provider creates have no password: their people sign in through single sign-on (or set one
with "Forgot password?")."""


@dataclass(frozen=True)
class UserAttributes:
    """What a provider may set of a user."""

    user_name: str
    email: str
    external_id: str | None = None
    given_name: str | None = None
    family_name: str | None = None
    display_name: str | None = None
    active: bool = True


@dataclass(frozen=True)
class DirectoryUser:
    id: UUID
    """The account's id: the same in every organization, shown only to organizations it belongs to."""
    attributes: UserAttributes
    role: str | None
    """None while the user is turned off."""
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class UserQuery:
    """One `eq` comparison (the filters a provider sends to find a user), and a page."""

    attribute: str | None = None
    """"userName", "externalId", "id" or "email"; None: everyone."""
    value: str = ""
    offset: int = 0
    limit: int = 100


class ScimDirectory:
    """The users and role groups of one organization; every query is filtered by it."""

    def __init__(self, session: AsyncSession, scope: OrgScope) -> None:
        self.session = session
        self.scope = scope
        self.org_id = scope.org_id
        self.members = Members(session, scope)

    def _users(self) -> Select[tuple[User, ScimUser | None, Membership | None]]:
        """Every user this organization's provider may see: members, and users it turned off."""
        return (
            select(User, ScimUser, Membership)
            .outerjoin(ScimUser, (ScimUser.user_id == User.id) & (ScimUser.org_id == self.org_id))
            .outerjoin(Membership, (Membership.user_id == User.id) & (Membership.org_id == self.org_id))
            .where((ScimUser.id.is_not(None)) | (Membership.id.is_not(None)))
        )

    def _matching(self, query: UserQuery) -> ColumnElement[bool] | None:
        value = query.value
        if query.attribute == "userName":
            return func.lower(func.coalesce(ScimUser.user_name, User.email)) == value.lower()
        if query.attribute == "email":
            return func.lower(User.email) == value.lower()
        if query.attribute == "externalId":
            return ScimUser.external_id == value
        if query.attribute == "id":
            try:
                return User.id == UUID(value)
            except ValueError:
                return User.id.is_(None)
        return None

    async def list(self, query: UserQuery) -> tuple[list[DirectoryUser], int]:
        statement = self._users()
        condition = self._matching(query)
        if condition is not None:
            statement = statement.where(condition)
        total = await self.session.scalar(select(func.count()).select_from(statement.subquery())) or 0
        rows = await self.session.execute(
            statement.order_by(User.created_at, User.id).offset(query.offset).limit(query.limit)
        )
        return [_directory_user(*row) for row in rows.tuples()], total

    async def get(self, user_id: UUID) -> DirectoryUser:
        row = (await self.session.execute(self._users().where(User.id == user_id))).tuples().first()
        if row is None:
            raise NotFound("no such user in this organization")
        return _directory_user(*row)

    async def create(self, wanted: UserAttributes) -> DirectoryUser:
        await self._lock_organization()
        email = await self._check_address(wanted.email)
        user = await self.session.scalar(select(User).where(func.lower(User.email) == email))
        if user is None:
            user = User(
                email=email,
                password_hash=PROVIDER_PASSWORD + secrets.token_urlsafe(32),
                email_verified_at=utc_now(),
            )
            self.session.add(user)
            await self.session.flush()
        elif (await self._row(user.id)) is not None or (await self._membership(user.id)) is not None:
            raise Conflict("userName: a user with this address is in this organization already")
        self.session.add(ScimUser(org_id=self.org_id, user_id=user.id, **_columns(wanted)))
        if wanted.active:
            await self.members.add(user.id, Role.MEMBER.value)
        await self.session.flush()
        return await self.get(user.id)

    async def update(self, user_id: UUID, wanted: UserAttributes) -> DirectoryUser:
        """Replace what the provider says of the user; turning them off or on moves their membership."""
        await self._lock_organization()
        current = await self.get(user_id)
        if wanted.email.strip().lower() != current.attributes.email.lower():
            await self._move_address(user_id, current.attributes.email, wanted.email)
        row = await self._row(user_id)
        if row is None:  # a member the provider did not create: it describes them from now on
            row = ScimUser(org_id=self.org_id, user_id=user_id, **_columns(wanted))
            self.session.add(row)
        else:
            for name, value in _columns(wanted).items():
                setattr(row, name, value)
        if current.role is not None and not wanted.active:
            await self._end_membership(user_id)
        elif current.role is None and wanted.active:
            await self.members.add(user_id, Role.MEMBER.value)
        await self.session.flush()
        return await self.get(user_id)

    async def delete(self, user_id: UUID) -> None:
        """The user leaves the organization; the account stays (it may belong to others)."""
        await self._lock_organization()
        current = await self.get(user_id)
        if current.role is not None:
            await self._end_membership(user_id)
        row = await self._row(user_id)
        if row is not None:
            await self.session.delete(row)
        await self.session.flush()

    async def group_members(self, role: str) -> list[DirectoryUser]:
        rows = await self.session.execute(
            self._users().where(Membership.role == role).order_by(Membership.created_at, Membership.id)
        )
        return [_directory_user(*row) for row in rows.tuples()]

    async def join_group(self, role: str, user_id: UUID) -> None:
        """Give an active user the group's role. Joining the member group takes no role away: everyone
        is a member, and the owner and admin groups say more."""
        await self._lock_organization()
        membership = await self._membership(user_id)
        if membership is None:
            if (await self._row(user_id)) is None:
                raise NotFound(f"members: no user {user_id} in this organization")
            raise InvalidRequest("members", f"user {user_id} is not active")
        if membership.role != role and role != Role.MEMBER:
            await self.members.change_role(membership.id, role)

    async def leave_group(self, role: str, user_id: UUID) -> None:
        """Leaving the owner or admin group makes the user a member; everyone is in the member group
        unless another group says more, so leaving it changes nothing."""
        await self._lock_organization()
        membership = await self._membership(user_id)
        if membership is not None and membership.role == role != Role.MEMBER:
            await self.members.change_role(membership.id, Role.MEMBER.value)

    async def set_group(self, role: str, user_ids: list[UUID]) -> None:
        """The group holds exactly these users: the ones named join it, the others leave it. Joining
        comes first, so that an owner group handed from one person to another never stands empty."""
        for user_id in user_ids:
            await self.join_group(role, user_id)
        for member in await self.group_members(role):
            if member.id not in user_ids:
                await self.leave_group(role, member.id)

    async def _lock_organization(self) -> None:
        """Every change of a user or a role takes the organization's row first, the lock the last-owner
        rule takes (tenants/members.py): a PATCH and a DELETE of one user, or a provider and an owner in
        the console, then wait for each other in one order instead of deadlocking."""
        await lock_rows(self.session, Organization, [Organization.id == self.org_id], [Organization.id])

    async def _end_membership(self, user_id: UUID) -> None:
        membership = await self._membership(user_id)
        if membership is None:
            return
        if membership.role == Role.OWNER:
            try:
                await self.members.remove(membership.id)
            except InvalidRequest:
                raise InvalidRequest(
                    "active", "the organization's last owner cannot be turned off or deleted"
                ) from None
        else:
            await self.members.remove(membership.id)
        apps = await self.session.scalars(
            select(ConnectedApp).where(
                ConnectedApp.org_id == self.org_id,
                ConnectedApp.user_id == user_id,
                ConnectedApp.revoked_at.is_(None),
            )
        )
        for app in apps:
            app.revoked_at = utc_now()

    async def _move_address(self, user_id: UUID, old: str, new: str) -> None:
        """A renamed person (jane.doe@ to jane.roe@): the account's address moves, only from one of the
        organization's proven domains to another (it manages those mailboxes, and no other), and never
        onto another account's address."""
        if not await claims_domain(self.session, self.org_id, old):
            raise InvalidRequest("userName", "the address is not at one of the organization's proven domains")
        new = await self._check_address(new)
        taken = select(User.id).where(func.lower(User.email) == new, User.id != user_id)
        if await self.session.scalar(taken):
            raise Conflict("userName: another account has this address")
        user = await self.session.get_one(User, user_id)
        user.email = new

    async def _check_address(self, email: str) -> str:
        email = check_email(email)
        if not await claims_domain(self.session, self.org_id, email):
            raise InvalidRequest(
                "userName", "must be an address at one of the organization's proven single sign-on domains"
            )
        return email

    async def _row(self, user_id: UUID) -> ScimUser | None:
        return await self.session.scalar(
            select(ScimUser).where(ScimUser.org_id == self.org_id, ScimUser.user_id == user_id)
        )

    async def _membership(self, user_id: UUID) -> Membership | None:
        return await self.session.scalar(
            select(Membership).where(Membership.org_id == self.org_id, Membership.user_id == user_id)
        )


def _columns(wanted: UserAttributes) -> dict[str, object]:
    return {
        "user_name": wanted.user_name,
        "external_id": wanted.external_id,
        "given_name": wanted.given_name,
        "family_name": wanted.family_name,
        "display_name": wanted.display_name,
        "active": wanted.active,
    }


def _directory_user(user: User, row: ScimUser | None, membership: Membership | None) -> DirectoryUser:
    attributes = UserAttributes(user_name=user.email, email=user.email, active=membership is not None)
    if row is not None:
        attributes = replace(
            attributes,
            user_name=row.user_name,
            external_id=row.external_id,
            given_name=row.given_name,
            family_name=row.family_name,
            display_name=row.display_name,
            active=row.active and membership is not None,
        )
    updated = max(
        filter(None, (user.updated_at, row and row.updated_at, membership and membership.updated_at))
    )
    return DirectoryUser(
        id=user.id,
        attributes=attributes,
        role=None if membership is None else membership.role,
        created_at=row.created_at if row is not None else membership.created_at,  # type: ignore[union-attr]
        updated_at=updated,
    )
