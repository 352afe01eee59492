"""The challenges of passkey ceremonies under way, kept server-side for a few minutes in the store of the
login counters (files, memory or Redis) and taken once: the browser gets a random handle, never a way to
pick its own challenge. They are not kept in the console session, because a visitor who is not signed in
has none (and giving them one would change their CSRF token in the middle of the ceremony)."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec
from litestar import Request
from litestar.stores.base import Store

from admin_ui.sessions import LOGIN_ATTEMPT_STORE

LIFETIME_SECONDS = 5 * 60
_PREFIX = "passkey-challenge:"


class _Kept(msgspec.Struct):
    challenge: str
    user_id: str | None
    name: str


@dataclass(frozen=True)
class KeptChallenge:
    challenge: bytes
    user_id: UUID | None
    """Whose ceremony it is: the signed-in user adding a passkey, the user of a sign-in's second step,
    or None for a sign-in by the passkey alone."""
    name: str
    """The name the new passkey is to have (registration)."""


@dataclass(frozen=True)
class PasskeyChallenges:
    store: Store

    @classmethod
    def of(cls, request: Request[Any, Any, Any]) -> PasskeyChallenges:
        return cls(request.app.stores.get(LOGIN_ATTEMPT_STORE))

    async def keep(self, challenge: bytes, *, user_id: UUID | None, name: str = "") -> str:
        handle = secrets.token_urlsafe(24)
        kept = _Kept(base64.b64encode(challenge).decode(), None if user_id is None else str(user_id), name)
        await self.store.set(_PREFIX + handle, msgspec.json.encode(kept), expires_in=LIFETIME_SECONDS)
        return handle

    async def take(self, handle: str) -> KeptChallenge | None:
        """The challenge behind `handle`, once; None when unknown or expired."""
        if not handle or len(handle) > 64:
            return None
        raw = await self.store.get(_PREFIX + handle)
        if raw is None:
            return None
        await self.store.delete(_PREFIX + handle)
        kept = msgspec.json.decode(raw, type=_Kept)
        return KeptChallenge(
            base64.b64decode(kept.challenge), None if kept.user_id is None else UUID(kept.user_id), kept.name
        )
