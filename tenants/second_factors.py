"""Second factors of an account: an authenticator app (TOTP, RFC 6238) and single-use recovery codes, and
what a user has of them (passkeys are in `tenants/passkeys.py`).

The authenticator's seed is sealed at rest with a secret box of its own purpose; a setup stays pending
until a code from the app is entered, so a seed shown but never used is no factor. A code is good for
its 30-second step and one step either side (clocks drift), and never twice: the last step accepted is
kept. Recovery codes are kept as keyed digests (HMAC-SHA256 under a key derived from HEARKEN_SECRET_KEY),
so neither a database dump nor the code's shape alone finds one; each is used up by one conditional
UPDATE, so two requests racing with the same code cannot both win. Everything here runs in the caller's
transaction. These are functions of one account, not services of an organization, so they take the
secret key rather than a scope."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

import pyotp
from sqlalchemy import ColumnElement, delete, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Passkey, RecoveryCode, TotpAuthenticator, User
from app.db.secret_box import SecretBox, secret_box
from app.errors import InvalidRequest
from app.timestamps import utc_now
from tenants.passwords import verify_password

TOTP_PURPOSE = b"hearken authenticator seeds v1"
ISSUER = "Hearken"
RECOVERY_CODE_COUNT = 10
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l/i: a code copied from paper reads one way."""
_RECOVERY_HALF = 5
_SEPARATORS = re.compile(r"[\s-]+")
TOTP_CODE = re.compile(r"^\d{6}$")


@dataclass(frozen=True)
class Factors:
    """What second factors an account has."""

    authenticator: bool
    passkeys: int
    recovery_codes_left: int

    @property
    def any(self) -> bool:
        return self.authenticator or self.passkeys > 0


def has_second_factor(user_id: ColumnElement[UUID]) -> ColumnElement[bool]:
    """A SQL expression: the user has a working authenticator or a passkey (read on every console
    request, beside the membership)."""
    return or_(
        exists().where(TotpAuthenticator.user_id == user_id, TotpAuthenticator.confirmed_at.is_not(None)),
        exists().where(Passkey.user_id == user_id),
    )


def totp_box(secret_key: str) -> SecretBox:
    """The box authenticator seeds are sealed in: it opens nothing sealed for another purpose."""
    return secret_box(secret_key, TOTP_PURPOSE)


def normalized_code(code: str) -> str:
    """A code as typed: spaces and dashes dropped, lower case."""
    return _SEPARATORS.sub("", code).lower()


async def factors_of(session: AsyncSession, user_id: UUID) -> Factors:
    authenticator = await session.scalar(
        select(func.count())
        .select_from(TotpAuthenticator)
        .where(TotpAuthenticator.user_id == user_id, TotpAuthenticator.confirmed_at.is_not(None))
    )
    passkeys = await session.scalar(
        select(func.count()).select_from(Passkey).where(Passkey.user_id == user_id)
    )
    left = await session.scalar(
        select(func.count())
        .select_from(RecoveryCode)
        .where(RecoveryCode.user_id == user_id, RecoveryCode.used_at.is_(None))
    )
    return Factors(authenticator=bool(authenticator), passkeys=passkeys or 0, recovery_codes_left=left or 0)


async def _authenticator(session: AsyncSession, user_id: UUID) -> TotpAuthenticator | None:
    return await session.scalar(select(TotpAuthenticator).where(TotpAuthenticator.user_id == user_id))


async def start_authenticator(session: AsyncSession, secret_key: str, user_id: UUID) -> str:
    """A new seed for a pending setup (replacing an earlier pending one): the base32 text the app takes."""
    current = await _authenticator(session, user_id)
    if current is not None and current.confirmed_at is not None:
        raise InvalidRequest("authenticator", "is set up already; turn it off first to set up another")
    seed = pyotp.random_base32()
    sealed = totp_box(secret_key).seal(seed)
    if current is None:
        session.add(TotpAuthenticator(user_id=user_id, sealed_secret=sealed))
    else:
        current.sealed_secret, current.last_used_step = sealed, None
    await session.flush()
    return seed


async def pending_seed(session: AsyncSession, secret_key: str, user_id: UUID) -> str | None:
    """The seed of a setup in progress, to show again (a reload of the setup page)."""
    current = await _authenticator(session, user_id)
    if current is None or current.confirmed_at is not None:
        return None
    return totp_box(secret_key).open(current.sealed_secret)


def provisioning_uri(seed: str, email: str) -> str:
    """The otpauth:// address an authenticator app reads from the QR code."""
    return pyotp.TOTP(seed).provisioning_uri(name=email, issuer_name=ISSUER)


def _accepted_step(seed: str, code: str, last_used_step: int | None, now: datetime) -> int | None:
    """The time step `code` belongs to, within one step of now and after the last one used; else None."""
    code = normalized_code(code)
    if not TOTP_CODE.match(code):
        return None
    totp = pyotp.TOTP(seed)
    current = totp.timecode(now)
    for step in (current - 1, current, current + 1):
        if (last_used_step is None or step > last_used_step) and hmac.compare_digest(
            totp.generate_otp(step), code
        ):
            return step
    return None


async def confirm_authenticator(session: AsyncSession, secret_key: str, user_id: UUID, code: str) -> None:
    """The pending setup becomes the account's authenticator when `code` is one of its codes."""
    current = await _authenticator(session, user_id)
    if current is None or current.confirmed_at is not None:
        raise InvalidRequest("code", "there is no authenticator setup in progress; start again")
    seed = totp_box(secret_key).open(current.sealed_secret)
    step = None if seed is None else _accepted_step(seed, code, None, datetime.now(UTC))
    if step is None:
        raise InvalidRequest("code", "is not the code your app shows now")
    current.confirmed_at, current.last_used_step = utc_now(), step
    await session.flush()


async def check_authenticator_code(session: AsyncSession, secret_key: str, user_id: UUID, code: str) -> bool:
    """True when `code` is a code of the account's authenticator not used before (it is used up now)."""
    current = await _authenticator(session, user_id)
    if current is None or current.confirmed_at is None:
        return False
    seed = totp_box(secret_key).open(current.sealed_secret)
    step = None if seed is None else _accepted_step(seed, code, current.last_used_step, datetime.now(UTC))
    if step is None:
        return False
    used = await session.execute(
        update(TotpAuthenticator)
        .where(
            TotpAuthenticator.id == current.id,
            (TotpAuthenticator.last_used_step.is_(None)) | (TotpAuthenticator.last_used_step < step),
        )
        .values(last_used_step=step)
        .execution_options(synchronize_session=False)
    )
    return bool(used.rowcount)  # type: ignore[attr-defined]


async def remove_authenticator(session: AsyncSession, user_id: UUID) -> bool:
    """Turn the authenticator off (or drop a pending setup); True when a working one was removed."""
    current = await _authenticator(session, user_id)
    if current is None:
        return False
    await session.delete(current)
    await session.flush()
    return current.confirmed_at is not None


def _recovery_key(secret_key: str) -> bytes:
    return hmac.new(secret_key.encode(), b"recovery codes", hashlib.sha256).digest()


def recovery_digest(secret_key: str, code: str) -> str:
    return hmac.new(_recovery_key(secret_key), normalized_code(code).encode(), hashlib.sha256).hexdigest()


def _new_recovery_code() -> str:
    letters = "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(2 * _RECOVERY_HALF))
    return f"{letters[:_RECOVERY_HALF]}-{letters[_RECOVERY_HALF:]}"


async def new_recovery_codes(session: AsyncSession, secret_key: str, user_id: UUID) -> list[str]:
    """Ten fresh codes replacing every earlier one; returned once, stored only as digests."""
    await session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    codes = [_new_recovery_code() for _ in range(RECOVERY_CODE_COUNT)]
    session.add_all(RecoveryCode(user_id=user_id, code_digest=recovery_digest(secret_key, c)) for c in codes)
    await session.flush()
    return codes


async def use_recovery_code(session: AsyncSession, secret_key: str, user_id: UUID, code: str) -> bool:
    """True when `code` is one of the account's unused codes; it is used up now."""
    used = await session.execute(
        update(RecoveryCode)
        .where(
            RecoveryCode.user_id == user_id,
            RecoveryCode.code_digest == recovery_digest(secret_key, code),
            RecoveryCode.used_at.is_(None),
        )
        .values(used_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    return bool(used.rowcount)  # type: ignore[attr-defined]


async def drop_recovery_codes(session: AsyncSession, user_id: UUID) -> None:
    """When the last factor goes, its recovery codes go with it."""
    await session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))


async def confirm_identity(session: AsyncSession, secret_key: str, user_id: UUID, given: str) -> bool:
    """Asked again before a factor is turned off or codes are made anew (a stolen session is not enough):
    the account's current password, or a code of its authenticator (used up)."""
    if TOTP_CODE.match(normalized_code(given)) and await check_authenticator_code(
        session, secret_key, user_id, given
    ):
        return True
    user = await session.get(User, user_id)
    return user is not None and await verify_password(user.password_hash, given)
