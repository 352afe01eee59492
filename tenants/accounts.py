"""Console accounts: signing up (a new organization with its owner), checking a password at login, and
changing it. A change of password or address uses up the account's open password-reset links."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Membership, Organization, SsoConnection, User
from app.errors import InvalidRequest
from app.timestamps import utc_now
from tenants.languages import DEFAULT_LANGUAGE, LANGUAGES
from tenants.organizations import add_organization, check_email, check_org_name, check_password
from tenants.password_resets import use_up_resets
from tenants.passwords import hash_password, verify_password
from tenants.single_sign_on import sso_required

_UNKNOWN_USER_HASH: str | None = None
"""A real argon2id hash checked when the email is unknown, so a miss costs as much as a wrong password."""


@dataclass(frozen=True)
class SignedUp:
    user: User
    organization: Organization


async def find_user(session: AsyncSession, email: str) -> User | None:
    return await session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


async def sign_up(
    session: AsyncSession,
    *,
    org_name: str,
    email: str,
    password: str,
    language: str = DEFAULT_LANGUAGE,
    email_confirmed: bool = False,
) -> SignedUp:
    """A new organization owned by a new user, in the caller's transaction. An email that already has an
    account must log in instead, otherwise anyone could attach organizations to someone else's account."""
    check_org_name(org_name)
    email = check_email(email)
    check_password(password)
    if await find_user(session, email) is not None:
        raise InvalidRequest("email", "already has an account; log in instead")
    org = await add_organization(
        session,
        name=org_name,
        owner_email=email,
        owner_password=password,
        owner_language=language,
        email_confirmed=email_confirmed,
    )
    user = await find_user(session, email)
    assert user is not None
    return SignedUp(user=user, organization=org)


async def authenticate(session: AsyncSession, email: str, password: str) -> User | None:
    """The user whose email and password these are, or None (same cost either way)."""
    global _UNKNOWN_USER_HASH
    user = await find_user(session, email)
    if user is None:
        if _UNKNOWN_USER_HASH is None:
            _UNKNOWN_USER_HASH = await hash_password("not a real password, only a timing equaliser")
        await verify_password(_UNKNOWN_USER_HASH, password)
        return None
    return user if await verify_password(user.password_hash, password) else None


async def change_password(session: AsyncSession, user_id: UUID, current: str, new: str) -> User:
    """Set a new password after checking the current one. In the caller's transaction."""
    user = await _with_password(session, user_id, current)
    user.password_hash = await hash_password(check_password(new))
    await use_up_resets(session, user.id)
    await session.flush()
    return user


async def rehash_password(session: AsyncSession, user_id: UUID, current: str) -> User:
    """The same password under a new salt: the hash changes, and with it what every session was stamped
    with at sign-in. In the caller's transaction."""
    user = await _with_password(session, user_id, current)
    user.password_hash = await hash_password(current)
    await use_up_resets(session, user.id)
    await session.flush()
    return user


async def _with_password(session: AsyncSession, user_id: UUID, password: str) -> User:
    user = await session.get(User, user_id)
    if user is None or not await verify_password(user.password_hash, password):
        raise InvalidRequest("current_password", "does not match your password")
    return user


async def change_email(
    session: AsyncSession, user_id: UUID, password: str, new_email: str, *, confirmed: bool
) -> User:
    """A new address for the account after checking its password, in the caller's transaction."""
    user = await _with_password(session, user_id, password)
    email = check_email(new_email)
    if email == user.email.lower():
        raise InvalidRequest("new_email", "is your address already")
    if await find_user(session, email) is not None:
        raise InvalidRequest("new_email", "already has an account")
    user.email = email
    user.email_verified_at = utc_now() if confirmed else None
    await use_up_resets(session, user.id)
    return user


async def set_language(session: AsyncSession, user_id: UUID, language: str) -> None:
    """The language of the mail this user receives, in the caller's transaction."""
    if language not in LANGUAGES:
        raise InvalidRequest("language", f"must be one of {', '.join(LANGUAGES)}")
    user = await session.get_one(User, user_id)
    user.language = language
    await session.flush()


async def first_membership(session: AsyncSession, user: User) -> Membership | None:
    """The organization a user lands in after signing in with their password or a passkey: the oldest
    membership whose organization takes a password from them, or else the oldest (whose "Require SSO"
    then sends them to their provider). A password is the account's, so an organization requiring single
    sign-on does not keep its member out of another that does not."""
    rows = await session.execute(
        select(Membership, SsoConnection.require_sso)
        .outerjoin(SsoConnection, SsoConnection.org_id == Membership.org_id)
        .where(Membership.user_id == user.id)
        .order_by(Membership.created_at, Membership.id)
    )
    memberships = list(rows.tuples())
    taking_password = (m for m, require_sso in memberships if not sso_required(m.role, bool(require_sso)))
    return next(taking_password, memberships[0][0] if memberships else None)
