"""Changes to how an account signs in, each recorded where its owner's organizations read their audit log
and confirmed by a mail to the account's address: an authenticator set up or turned off, recovery codes
made anew or one used, a passkey added or removed. The organization's own setting, "Require two-factor
authentication", is recorded in that organization's log. Each runs in the caller's transaction, so the
entry and the mail exist exactly when the change does. No secret is ever written to either."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.audit_trail import audit
from app.db.models import Membership, Organization, Passkey, User
from app.mail import Mail, queue_mail
from app.mail.texts import SIGN_IN_CHANGES
from tenants import passkeys, second_factors
from tenants.permissions import require
from tenants.scope import Access, OrgScope

ACCOUNT_TARGET = "account"


async def record_change(
    session: AsyncSession,
    settings: Settings,
    user_id: UUID,
    change: str,
    details: dict[str, Any] | None = None,
) -> None:
    """One audit entry in each of the user's organizations (`account.<change>`) and the mail."""
    user = await session.get_one(User, user_id)
    org_ids = (await session.scalars(select(Membership.org_id).where(Membership.user_id == user_id))).all()
    for org_id in org_ids:
        audit(
            session,
            org_id,
            f"{ACCOUNT_TARGET}.{change}",
            ACCOUNT_TARGET,
            user_id,
            {"email": user.email, **(details or {})},
        )
    mail = Mail(
        recipient=user.email,
        language=user.language,
        kind="sign_in_changed",
        url=f"{settings.base_url}/account",
        values={"email": user.email, "change": SIGN_IN_CHANGES[change][user.language]},
    )
    queue_mail(session, settings.secret_key, mail)
    await session.flush()


async def confirm_authenticator(
    session: AsyncSession, settings: Settings, user_id: UUID, code: str
) -> list[str]:
    """Finish an authenticator's setup; the first factor also brings recovery codes (returned, once)."""
    had = await second_factors.factors_of(session, user_id)
    await second_factors.confirm_authenticator(session, settings.secret_key, user_id, code)
    await record_change(session, settings, user_id, "authenticator_on")
    return await _first_recovery_codes(session, settings, user_id, had)


async def turn_off_authenticator(session: AsyncSession, settings: Settings, user_id: UUID) -> None:
    if await second_factors.remove_authenticator(session, user_id):
        await _drop_codes_without_factors(session, user_id)
        await record_change(session, settings, user_id, "authenticator_off")


async def new_recovery_codes(session: AsyncSession, settings: Settings, user_id: UUID) -> list[str]:
    codes = await second_factors.new_recovery_codes(session, settings.secret_key, user_id)
    await record_change(session, settings, user_id, "recovery_codes")
    return codes


async def use_recovery_code(session: AsyncSession, settings: Settings, user_id: UUID, code: str) -> bool:
    """True when the code was good; its owner is told by mail that one was used."""
    if not await second_factors.use_recovery_code(session, settings.secret_key, user_id, code):
        return False
    left = (await second_factors.factors_of(session, user_id)).recovery_codes_left
    await record_change(session, settings, user_id, "recovery_code_used", {"recovery_codes_left": left})
    return True


async def add_passkey(
    session: AsyncSession, settings: Settings, user_id: UUID, registration: passkeys.Registration
) -> list[str]:
    """Store a verified passkey; as the first factor it also brings recovery codes (returned, once)."""
    had = await second_factors.factors_of(session, user_id)
    passkey = await passkeys.store(session, user_id, registration)
    await record_change(session, settings, user_id, "passkey_added", {"passkey": passkey.name})
    return await _first_recovery_codes(session, settings, user_id, had)


async def remove_passkey(session: AsyncSession, settings: Settings, user_id: UUID, passkey_id: UUID) -> None:
    removed: Passkey | None = await passkeys.remove(session, user_id, passkey_id)
    if removed is not None:
        await _drop_codes_without_factors(session, user_id)
        await record_change(session, settings, user_id, "passkey_removed", {"passkey": removed.name})


async def set_require_two_factor(session: AsyncSession, scope: OrgScope, required: bool) -> None:
    """The organization's setting, by an owner or admin, in its audit log."""
    require(scope, Access.ADMIN)
    org = await session.get_one(Organization, scope.org_id)
    if org.require_two_factor == required:
        return
    audit(
        session,
        org.id,
        "organization.updated",
        "organization",
        org.id,
        {"require_two_factor": {"from": org.require_two_factor, "to": required}},
    )
    org.require_two_factor = required
    await session.flush()


async def _first_recovery_codes(
    session: AsyncSession, settings: Settings, user_id: UUID, had: second_factors.Factors
) -> list[str]:
    if had.any and had.recovery_codes_left:
        return []
    return await second_factors.new_recovery_codes(session, settings.secret_key, user_id)


async def _drop_codes_without_factors(session: AsyncSession, user_id: UUID) -> None:
    if not (await second_factors.factors_of(session, user_id)).any:
        await second_factors.drop_recovery_codes(session, user_id)
