"""Confirming that an account's owner reads its address: a link mailed at sign-up and after every change
of address, good for 7 days. Until it is followed the console shows a banner, and the account can
neither invite nor create tokens. A server without SMTP counts every account as confirmed (there is no
way to mail the link), so a single self-hosted install works end to end.

The link is signed, not stored: an HMAC over the account, its address and the link's expiry, keyed by a
key derived from HEARKEN_SECRET_KEY. A link sent to an earlier address stops working once the address
changes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from datetime import timedelta
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import User
from app.errors import NotFound
from app.mail import Mail, queue_mail
from app.timestamps import utc_now
from tenants.accounts import SignedUp, change_email, sign_up

LINK_LIFETIME = timedelta(days=7)
UNKNOWN_LINK = "this confirmation link is unknown, expired or for an earlier address"


def is_confirmed(settings: Settings, email_verified_at: object) -> bool:
    return email_verified_at is not None or not settings.sends_mail


async def sign_up_confirming(
    session: AsyncSession, settings: Settings, *, org_name: str, email: str, password: str, language: str
) -> SignedUp:
    """A new organization and its owner, with the confirmation mail when mail is sent, in the
    caller's transaction."""
    created = await sign_up(
        session,
        org_name=org_name,
        email=email,
        password=password,
        language=language,
        email_confirmed=not settings.sends_mail,
    )
    if settings.sends_mail:
        await session.flush()
        queue_confirmation(session, settings, created.user)
    return created


async def change_address(
    session: AsyncSession, settings: Settings, user_id: UUID, password: str, new_email: str
) -> User:
    """A new address for the account, to be confirmed anew when mail is sent, in the caller's transaction."""
    user = await change_email(session, user_id, password, new_email, confirmed=not settings.sends_mail)
    if settings.sends_mail:
        queue_confirmation(session, settings, user)
    await session.flush()
    return user


async def send_confirmation_again(session: AsyncSession, settings: Settings, user_id: UUID) -> None:
    user = await session.get_one(User, user_id)
    if user.email_verified_at is None and settings.sends_mail:
        queue_confirmation(session, settings, user)


def queue_confirmation(session: AsyncSession, settings: Settings, user: User) -> None:
    token = confirmation_token(
        settings.secret_key, user.id, user.email, int(time.time() + LINK_LIFETIME.total_seconds())
    )
    mail = Mail(
        recipient=user.email,
        language=user.language,
        kind="confirm_email",
        url=f"{settings.base_url}/account/confirm/{token}",
        values={"email": user.email},
    )
    queue_mail(session, settings.secret_key, mail)


async def confirm(session: AsyncSession, settings: Settings, token: str) -> User:
    """Mark the address confirmed; 404 for a link that is malformed, expired or for another address."""
    try:
        user_part, expires_part, _ = token.split(".")
        user_id, expires = UUID(hex=user_part), int(expires_part)
    except ValueError:
        raise NotFound(UNKNOWN_LINK) from None
    user = await session.get(User, user_id)
    if user is None or expires < time.time():
        raise NotFound(UNKNOWN_LINK)
    expected = confirmation_token(settings.secret_key, user.id, user.email, expires)
    if not hmac.compare_digest(expected, token):
        raise NotFound(UNKNOWN_LINK)
    if user.email_verified_at is None:
        user.email_verified_at = utc_now()
        await session.flush()
    return user


def confirmation_token(secret_key: str, user_id: UUID, email: str, expires: int) -> str:
    key = hmac.new(secret_key.encode(), b"email-confirmation", hashlib.sha256).digest()
    signed = f"{user_id.hex}|{email.strip().lower()}|{expires}".encode()
    signature = base64.urlsafe_b64encode(hmac.new(key, signed, hashlib.sha256).digest()).rstrip(b"=")
    return f"{user_id.hex}.{expires}.{signature.decode()}"
