"""Inviting by mail: the invitation and its mail in one transaction, so the mail goes out exactly when
the invitation exists. The mail is written in the invited account's language when the address already
has an account, else in the inviter's."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.mail import Mail, queue_mail
from tenants.accounts import find_user
from tenants.invitations import Invitations, IssuedInvitation
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
    return f"{settings.base_url}/invitations/{issued.secret}"


async def _mail(
    session: AsyncSession, settings: Settings, inviter: Inviter, issued: IssuedInvitation
) -> None:
    record = issued.record
    account = await find_user(session, record.email)
    mail = Mail(
        recipient=record.email,
        language=account.language if account else inviter.language,
        kind="invitation",
        url=invitation_link(settings, issued),
        values={"inviter": inviter.email, "organization": inviter.org_name, "role": record.role},
    )
    queue_mail(session, settings.secret_key, mail)
    await session.flush()
