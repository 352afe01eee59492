"""Failed logins are counted per email and client, and per email alone, in a shared store; past the
budget, logins for that email wait out the window. Keys are keyed hashes: no email or address is stored."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from litestar.stores.base import Store

WINDOW_SECONDS = 15 * 60
PER_CLIENT_FAILURES = 5
PER_EMAIL_FAILURES = 20


@dataclass(frozen=True)
class LoginThrottle:
    store: Store
    secret: str

    def _keys(self, email: str, client: str) -> tuple[tuple[str, int], ...]:
        email = email.strip().lower()
        return (
            (self._hash(f"client|{email}|{client}"), PER_CLIENT_FAILURES),
            (self._hash(f"email|{email}"), PER_EMAIL_FAILURES),
        )

    def _hash(self, text: str) -> str:
        return hmac.new(self.secret.encode(), text.encode(), hashlib.sha256).hexdigest()

    async def retry_after(self, email: str, client: str) -> int:
        """Seconds to wait before this email may try again from this client; 0 when it may now."""
        wait = 0
        for key, budget in self._keys(email, client):
            value = await self.store.get(key)
            if value is not None and int(value) >= budget:
                wait = max(wait, await self.store.expires_in(key) or WINDOW_SECONDS)
        return wait

    async def failed(self, email: str, client: str) -> None:
        for key, _ in self._keys(email, client):
            value = await self.store.get(key)
            if value is None:
                await self.store.set(key, b"1", expires_in=WINDOW_SECONDS)
            else:
                remaining = await self.store.expires_in(key) or WINDOW_SECONDS
                await self.store.set(key, str(int(value) + 1).encode(), expires_in=remaining)

    async def succeeded(self, email: str, client: str) -> None:
        """A right password clears this client's count (not the per-email one: it tracks a spray)."""
        await self.store.delete(self._keys(email, client)[0][0])
