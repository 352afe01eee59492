"""Creating an organization together with its owner."""

from __future__ import annotations

import re

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Membership, Organization, Role, User
from app.errors import InvalidRequest
from app.schemas.fields import EMAIL_PATTERN, NOT_ONE_LINE, is_one_line
from app.timestamps import utc_now
from tenants.passwords import MIN_PASSWORD_LENGTH, hash_password

_EMAIL = re.compile(EMAIL_PATTERN)


def normalize_email(email: str) -> str:
    return email.strip().lower()


def check_email(email: str) -> str:
    email = normalize_email(email)
    if len(email) > 320 or not _EMAIL.match(email):
        raise InvalidRequest("email", "must be an address like name@example.com (at most 320 characters)")
    return email


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidRequest("password", f"must be at least {MIN_PASSWORD_LENGTH} characters")
    if len(password) > 1024:
        raise InvalidRequest("password", "must be at most 1024 characters")
    return password


def check_org_name(name: str) -> str:
    """One line (it becomes part of mail subjects), 1 to 200 characters once trimmed."""
    if not is_one_line(name):
        raise InvalidRequest("name", NOT_ONE_LINE)
    name = name.strip()
    if not name or len(name) > 200:
        raise InvalidRequest("name", "must be 1 to 200 characters")
    return name


async def create_organization(
    session: AsyncSession, *, name: str, owner_email: str, owner_password: str, owner_language: str = "en"
) -> Organization:
    """A new organization whose owner is the user with this email (created if new, with the language of
    the mail it will receive; an operator's word counts as a confirmed address), in the caller's
    transaction."""
    org = await add_organization(
        session,
        name=name,
        owner_email=owner_email,
        owner_password=owner_password,
        owner_language=owner_language,
        email_confirmed=True,
    )
    return org


async def add_organization(
    session: AsyncSession,
    *,
    name: str,
    owner_email: str,
    owner_password: str,
    owner_language: str,
    email_confirmed: bool,
) -> Organization:
    """`create_organization` in the caller's transaction."""
    name = check_org_name(name)
    email = check_email(owner_email)
    check_password(owner_password)
    user = await session.scalar(select(User).where(func.lower(User.email) == email))
    if user is None:
        user = User(
            email=email,
            password_hash=await hash_password(owner_password),
            language=owner_language,
            email_verified_at=utc_now() if email_confirmed else None,
        )
        session.add(user)
    org = Organization(name=name)
    session.add(org)
    await session.flush()
    session.add(Membership(org_id=org.id, user_id=user.id, role=Role.OWNER.value))
    await session.flush()
    return org
