"""Passkeys (WebAuthn credentials) over the `webauthn` package: the options a browser needs to create or
use one, and the checks of what it answers (challenge, origin, relying party id, signature, counter).

The relying party is the console's public address (HEARKEN_BASE_URL): its host name is the RP id and its
origin the only one accepted, so a passkey made for one deployment is worth nothing on another. A passkey
may be a second factor after the password or, being discoverable (a resident key) and verifying its user
(PIN or biometrics), a sign-in of its own. Only public keys are stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authentication_credential_json
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidJSONStructure,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.db.models import Passkey
from app.errors import InvalidRequest
from app.timestamps import utc_now

RP_NAME = "Hearken"
NAME_LENGTH = 100
TIMEOUT_MS = 120_000


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origin: str


@dataclass(frozen=True)
class Registration:
    """A passkey the browser created, verified, not yet stored."""

    credential_id: str
    public_key: bytes
    sign_count: int
    name: str


def relying_party(base_url: str) -> RelyingParty:
    parts = urlsplit(base_url)
    return RelyingParty(id=parts.hostname or "localhost", origin=f"{parts.scheme}://{parts.netloc}")


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise InvalidRequest("name", "give the passkey a name, for example the device it is on")
    if len(name) > NAME_LENGTH:
        raise InvalidRequest("name", f"must be at most {NAME_LENGTH} characters")
    return name


async def credential_ids(session: AsyncSession, user_id: UUID) -> list[str]:
    return list(
        (await session.scalars(select(Passkey.credential_id).where(Passkey.user_id == user_id))).all()
    )


async def list_passkeys(session: AsyncSession, user_id: UUID) -> list[Passkey]:
    statement = select(Passkey).where(Passkey.user_id == user_id).order_by(Passkey.created_at, Passkey.id)
    return list((await session.scalars(statement)).all())


def _descriptors(ids: list[str]) -> list[PublicKeyCredentialDescriptor]:
    return [PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential)) for credential in ids]


def registration_options(
    rp: RelyingParty, user_id: UUID, email: str, existing: list[str]
) -> tuple[str, bytes]:
    """The JSON for `navigator.credentials.create()` and its challenge. Discoverable where the authenticator
    can, so the passkey can also sign in without the password."""
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_name=email,
        user_id=user_id.bytes,
        user_display_name=email,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=_descriptors(existing),
    )
    return options_to_json(options), options.challenge


def verify_registration(
    rp: RelyingParty, credential: dict[str, Any], challenge: bytes, name: str
) -> Registration:
    name = check_name(name)
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
        )
    except (InvalidRegistrationResponse, InvalidJSONStructure, ValueError, KeyError, TypeError) as exc:
        raise InvalidRequest("credential", f"the browser's passkey could not be verified: {exc}") from None
    return Registration(
        credential_id=bytes_to_base64url(verified.credential_id),
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        name=name,
    )


async def store(session: AsyncSession, user_id: UUID, registration: Registration) -> Passkey:
    if await session.scalar(select(Passkey.id).where(Passkey.credential_id == registration.credential_id)):
        raise InvalidRequest("credential", "this passkey is registered already")
    passkey = Passkey(
        user_id=user_id,
        credential_id=registration.credential_id,
        public_key=registration.public_key,
        sign_count=registration.sign_count,
        name=registration.name,
    )
    session.add(passkey)
    await session.flush()
    return passkey


async def remove(session: AsyncSession, user_id: UUID, passkey_id: UUID) -> Passkey | None:
    passkey = await session.scalar(
        select(Passkey).where(Passkey.id == passkey_id, Passkey.user_id == user_id)
    )
    if passkey is not None:
        await session.delete(passkey)
        await session.flush()
    return passkey


def authentication_options(rp: RelyingParty, allowed: list[str] | None) -> tuple[str, bytes]:
    """The JSON for `navigator.credentials.get()` and its challenge: with the account's passkeys named
    (a second factor), or none named (the browser offers its discoverable passkeys for this site, and
    the user must be verified: the passkey is the whole sign-in)."""
    options = generate_authentication_options(
        rp_id=rp.id,
        timeout=TIMEOUT_MS,
        allow_credentials=_descriptors(allowed) if allowed else None,
        user_verification=(
            UserVerificationRequirement.PREFERRED if allowed else UserVerificationRequirement.REQUIRED
        ),
    )
    return options_to_json(options), options.challenge


async def verify_assertion(
    session: AsyncSession,
    rp: RelyingParty,
    credential: dict[str, Any],
    challenge: bytes,
    *,
    user_id: UUID | None,
) -> Passkey | None:
    """The passkey that signed this challenge, its counter moved on; None when anything does not match.
    `user_id` None is a sign-in by the passkey alone: it must be the user's own (its user handle) and the
    user verified."""
    try:
        parsed = parse_authentication_credential_json(credential)
    except (InvalidJSONStructure, ValueError, KeyError, TypeError):
        return None
    statement = select(Passkey).where(Passkey.credential_id == bytes_to_base64url(parsed.raw_id))
    if user_id is not None:
        statement = statement.where(Passkey.user_id == user_id)
    passkey = await session.scalar(statement)
    if passkey is None:
        return None
    handle = parsed.response.user_handle
    if user_id is None and handle is not None and handle != passkey.user_id.bytes:
        return None
    try:
        verified = verify_authentication_response(
            credential=parsed,
            expected_challenge=challenge,
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=user_id is None,
        )
    except (InvalidAuthenticationResponse, ValueError):
        return None
    passkey.sign_count, passkey.last_used_at = verified.new_sign_count, utc_now()
    await session.flush()
    return passkey
