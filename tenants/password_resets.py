"""Setting a new password by a one-time link: issued for an account, good once and for 60 minutes, only
the SHA-256 digest of its secret stored (as for access tokens and invitations).

Using one ends every other session of the account: sessions are stamped with the password hash, which
changes. Every other link of the account stops working too, and so does every open link once the password
or the address changes by other means (a link mailed to an old address must not take the account)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from uuid import UUID

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PasswordReset, User
from app.errors import NotFound
from app.timestamps import utc_now
from tenants.organizations import check_password
from tenants.passwords import hash_password
from tenants.token_format import token_digest

RESET_LIFETIME = timedelta(minutes=60)
UNKNOWN_LINK = "this link to set a password is unknown, used or expired"


def new_reset_secret() -> str:
    return secrets.token_urlsafe(32)


def issue_reset(session: AsyncSession, user: User, secret: str) -> PasswordReset:
    """Add the link's record to the caller's transaction."""
    record = PasswordReset(
        user_id=user.id, token_digest=token_digest(secret), expires_at=utc_now() + RESET_LIFETIME
    )
    session.add(record)
    return record


async def open_reset(session: AsyncSession, secret: str) -> tuple[PasswordReset, User]:
    """The unused, unexpired link and its account; 404 otherwise (whatever the reason)."""
    record = await session.scalar(
        select(PasswordReset).where(PasswordReset.token_digest == token_digest(secret))
    )
    if record is None or record.used_at is not None or record.expires_at <= utc_now():
        raise NotFound(UNKNOWN_LINK)
    user = await session.get(User, record.user_id)
    if user is None:
        raise NotFound(UNKNOWN_LINK)
    return record, user


async def reset_password(session: AsyncSession, secret: str, new_password: str) -> User:
    """Set the new password and use up every open link of the account, in the caller's transaction."""
    record, user = await open_reset(session, secret)
    user.password_hash = await hash_password(check_password(new_password))
    now = utc_now()
    # Only where still unused: of two requests racing with one link, the second changes no row.
    used = await session.execute(
        update(PasswordReset)
        .where(PasswordReset.id == record.id, PasswordReset.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    if used.rowcount != 1:  # type: ignore[attr-defined]
        raise NotFound(UNKNOWN_LINK)
    await use_up_resets(session, user.id)
    await session.flush()
    return user


async def use_up_resets(session: AsyncSession, user_id: UUID) -> None:
    """Every open link of the account stops working, in the caller's transaction."""
    await session.execute(
        update(PasswordReset)
        .where(PasswordReset.user_id == user_id, PasswordReset.used_at.is_(None))
        .values(used_at=utc_now())
        .execution_options(synchronize_session=False)
    )
