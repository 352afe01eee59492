"""Inviting by mail: the invitation and its mail in one transaction, so the mail goes out exactly when
the invitation exists. The mail is written in the invited account's language when the address already
has an account, else in the inviter's.

The mailed link is the link the owner may copy plus a proof that only the server can draw (an HMAC of
the link's secret keyed from HEARKEN_SECRET_KEY): accepted from the mail, the invitation shows that its
reader reads the address, so the account it creates counts as confirmed. Accepted from the copied link
(which the owner has seen), the new account confirms its address by mail like any sign-up."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Membership, User
from app.mail import Mail, queue_mail
from app.services.email_verification import queue_confirmation
from tenants.accounts import find_user
from tenants.invitations import Invitations, IssuedInvitation, accept_invitation
from tenants.scope import OrgScope


@dataclass(frozen=True)
class Inviter:
    user_id: UUID
    email: str
    language: str
    scope: OrgScope
    """The inviting owner's scope: the invitation is made in its organization."""
    org_name: str


async def invite(
    session: AsyncSession, settings: Settings, inviter: Inviter, *, email: str, role: str
) -> IssuedInvitation:
    """A new invitation, mailed, in the caller's transaction."""
    issued = Invitations(session, inviter.scope).issue(email=email, role=role, created_by=inviter.user_id)
    await _mail(session, settings, inviter, issued)
    return issued


async def invite_again(
    session: AsyncSession, settings: Settings, inviter: Inviter, invitation_id: UUID
) -> IssuedInvitation:
    """A new link for a pending (or expired) invitation, mailed; the old link stops working;
    in the caller's transaction."""
    issued = await Invitations(session, inviter.scope).renew(invitation_id)
    await _mail(session, settings, inviter, issued)
    return issued


def invitation_link(settings: Settings, issued: IssuedInvitation) -> str:
    """The link shown to the owner to copy."""
    return f"{settings.base_url}/invitations/{issued.secret}"


def mailed_link(settings: Settings, issued: IssuedInvitation) -> str:
    """The link in the mail: the copyable one with the proof that it came by mail."""
    return f"{invitation_link(settings, issued)}.{_mail_proof(settings.secret_key, issued.secret)}"


def link_secret(settings: Settings, token: str) -> tuple[str, bool]:
    """The invitation's secret in a link's last part, and whether the link is the mailed one."""
    secret, _, proof = token.partition(".")
    return secret, bool(proof) and hmac.compare_digest(proof, _mail_proof(settings.secret_key, secret))


async def accept(
    session: AsyncSession, settings: Settings, token: str, password: str
) -> tuple[User, Membership]:
    """Accept the invitation behind a link, in the caller's transaction. Only the mailed link confirms
    the address; an account created from the copied one is sent the confirmation mail."""
    secret, mailed = link_secret(settings, token)
    user, membership, created = await accept_invitation(session, secret, password, confirms_address=mailed)
    if created and not mailed and settings.sends_mail:
        queue_confirmation(session, settings, user)
        await session.flush()
    return user, membership


def _mail_proof(secret_key: str, secret: str) -> str:
    key = hmac.new(secret_key.encode(), b"invitation-mailed", hashlib.sha256).digest()
    digest = hmac.new(key, secret.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


async def _mail(
    session: AsyncSession, settings: Settings, inviter: Inviter, issued: IssuedInvitation
) -> None:
    record = issued.record
    account = await find_user(session, record.email)
    mail = Mail(
        recipient=record.email,
        language=account.language if account else inviter.language,
        kind="invitation",
        url=mailed_link(settings, issued),
        values={"inviter": inviter.email, "organization": inviter.org_name, "role": record.role},
    )
    queue_mail(session, settings.secret_key, mail)
    await session.flush()
