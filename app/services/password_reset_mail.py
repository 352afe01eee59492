"""Mailing a link to set a new password, without telling anyone whether the address has an account.

Known and unknown addresses take the same path: the link's secret is drawn and the mail composed and
encrypted in both cases, and only for a known account are the link and the mail stored (one
transaction, so the mail goes out exactly when the link exists). The answer to the asker is the same
either way."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.mail import Mail
from app.mail.outbox import queue_sealed, seal_mail
from tenants.accounts import find_user
from tenants.languages import DEFAULT_LANGUAGE
from tenants.organizations import check_email
from tenants.password_resets import issue_reset, new_reset_secret


async def mail_password_reset(session: AsyncSession, settings: Settings, email: str) -> None:
    """Queue the mail when `email` has an account; 400 only for something that is not an address."""
    email = check_email(email)
    user = await find_user(session, email)
    secret = new_reset_secret()
    mail = Mail(
        recipient=user.email if user else email,
        language=user.language if user else DEFAULT_LANGUAGE,
        kind="password_reset",
        url=f"{settings.base_url}/password/reset/{secret}",
        values={"email": user.email if user else email},
    )
    sealed = seal_mail(settings.secret_key, mail)
    if user is None:
        return
    issue_reset(session, user, secret)
    queue_sealed(session, mail, sealed)
    await session.flush()
