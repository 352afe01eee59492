"""How much password work a stranger can cause: sign-ins, password checks and sign-ups are reserved in a
shared counter before any argon2 work runs, so parallel attempts cannot slip past it.

Each attempt is counted, up front, against several budgets: per email and client, per email alone (a
spray from many addresses) and per client alone (argon2 work for any email, known or not); sign-ups per
client; password reset mails per address and per client; confirmation mails per account. Past a
budget's free attempts each further one must wait a delay that grows with the count, up to a cap,
instead of a lockout anyone could trigger for somebody else. A right password clears the
per-email-and-client count. The second step of a sign-in (an authenticator code, a recovery code, a
passkey) is counted per email and client and per account; a passkey sign-in without a password per
client. Counters are forgotten after a quiet window.

The client is the address the trusted proxies name (the same as the public endpoints use), an IPv6
client by its /64. Keys are keyed hashes: no email or address is stored. With Redis, one script reserves
all of an attempt's budgets atomically across workers; otherwise a lock serializes this process's
reservations in the file or memory store (one process, as without Redis).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec
from litestar import Request
from litestar.stores.base import Store
from redis.asyncio import Redis

from admin_ui.sessions import LOGIN_ATTEMPT_STORE, derived_secret
from app.config import Settings
from app.ingest import client_address, client_network

WINDOW_SECONDS = 15 * 60
_STATE_KEY = "login_attempt_counters"


@dataclass(frozen=True)
class Budget:
    name: str
    free: int
    """Attempts without any wait."""
    first_delay: float
    growth: float
    max_delay: float

    def delay_after(self, attempts: int) -> float:
        """The wait before the next attempt, once `attempts` have been made."""
        if attempts < self.free:
            return 0.0
        return min(self.max_delay, self.first_delay * self.growth ** (attempts - self.free))


PER_EMAIL_AND_CLIENT = Budget("email-client", free=5, first_delay=30, growth=2, max_delay=WINDOW_SECONDS)
PER_EMAIL = Budget("email", free=20, first_delay=5, growth=2, max_delay=60)
PER_CLIENT = Budget("client", free=30, first_delay=1, growth=1, max_delay=1)
SIGNUPS_PER_CLIENT = Budget("signup", free=10, first_delay=60, growth=2, max_delay=WINDOW_SECONDS)
RESETS_PER_EMAIL = Budget("reset-email", free=3, first_delay=120, growth=2, max_delay=WINDOW_SECONDS)
"""Reset mails to one address: a few, then a growing wait (nobody's mailbox is flooded through us)."""
RESETS_PER_CLIENT = Budget("reset-client", free=10, first_delay=30, growth=2, max_delay=WINDOW_SECONDS)
CONFIRMATIONS_PER_ACCOUNT = Budget(
    "confirm-mail", free=3, first_delay=120, growth=2, max_delay=WINDOW_SECONDS
)
"""Confirmation mails sent again for one account: as for resets, a few, then a growing wait."""
SECOND_FACTORS_PER_ACCOUNT = Budget(
    "second-factor", free=5, first_delay=30, growth=2, max_delay=WINDOW_SECONDS
)
"""Codes and passkeys tried for one account after its password, from any client: a code has a million
values, so past a few misses each further guess waits up to the window's length."""
PASSKEYS_PER_CLIENT = Budget("passkey-client", free=10, first_delay=5, growth=2, max_delay=WINDOW_SECONDS)
"""Sign-ins by a passkey alone from one client (no email is known before the passkey answers)."""

Reservation = Sequence[tuple[str, Budget]]


class AttemptCounters(Protocol):
    async def reserve(self, keys: Reservation, now: float) -> float:
        """Count one attempt on every key, or on none: the seconds to wait when one key says so."""
        ...

    async def forget(self, key: str) -> None: ...


class _Count(msgspec.Struct, array_like=True):
    attempts: int
    next_at: float


@dataclass
class StoreCounters:
    """A Litestar store (files or memory); the lock makes reservations atomic within this process."""

    store: Store
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def reserve(self, keys: Reservation, now: float) -> float:
        async with self.lock:
            counts = []
            for key, _ in keys:
                raw = await self.store.get(key)
                counts.append(msgspec.json.decode(raw, type=_Count) if raw else _Count(0, 0.0))
            wait = max((count.next_at - now for count in counts), default=0.0)
            if wait > 0:
                return wait
            for (key, budget), count in zip(keys, counts, strict=True):
                attempts = count.attempts + 1
                delay = budget.delay_after(attempts)
                value = _Count(attempts, now + delay if delay else count.next_at)
                await self.store.set(key, msgspec.json.encode(value), expires_in=WINDOW_SECONDS)
            return 0.0

    async def forget(self, key: str) -> None:
        await self.store.delete(key)


_RESERVE = """
-- next_at moves only when a delay starts: requests racing with slightly different clocks must not
-- make each other wait while attempts are still free.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  local next_at = tonumber(redis.call('HGET', key, 'next_at') or '0')
  if next_at - now > wait then wait = next_at - now end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  local attempts = redis.call('HINCRBY', key, 'attempts', 1)
  local base = 2 + (i - 1) * 4
  local free, first, growth, cap = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]),
    tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  if attempts >= free then
    redis.call('HSET', key, 'next_at', tostring(now + math.min(cap, first * growth ^ (attempts - free))))
  end
  redis.call('EXPIRE', key, window)
end
return '0'
"""


@dataclass
class RedisCounters:
    redis: Redis
    prefix: str

    async def reserve(self, keys: Reservation, now: float) -> float:
        arguments: list[Any] = [repr(now), WINDOW_SECONDS]
        for _, budget in keys:
            arguments += [budget.free, budget.first_delay, budget.growth, budget.max_delay]
        names = [self.prefix + key for key, _ in keys]
        return float(await self.redis.eval(_RESERVE, len(names), *names, *arguments))  # type: ignore[misc]

    async def forget(self, key: str) -> None:
        await self.redis.delete(self.prefix + key)


@dataclass(frozen=True)
class LoginThrottle:
    counters: AttemptCounters
    secret: str

    def _key(self, budget: Budget, *parts: str) -> str:
        text = "|".join((budget.name, *parts))
        return hmac.new(self.secret.encode(), text.encode(), hashlib.sha256).hexdigest()

    def _login_keys(self, email: str, client: str) -> list[tuple[str, Budget]]:
        email = email.strip().lower()
        return [
            (self._key(PER_EMAIL_AND_CLIENT, email, client), PER_EMAIL_AND_CLIENT),
            (self._key(PER_EMAIL, email), PER_EMAIL),
            (self._key(PER_CLIENT, client), PER_CLIENT),
        ]

    async def reserve_password_check(self, email: str, client: str) -> int:
        """Reserve one password check for this email from this client: 0 when it may run now, else the
        seconds to wait."""
        return _seconds(await self.counters.reserve(self._login_keys(email, client), time.time()))

    async def succeeded(self, email: str, client: str) -> None:
        """A right password clears this client's count for the email (not the others: they track a spray
        and the work one client causes)."""
        await self.counters.forget(self._login_keys(email, client)[0][0])

    def _second_factor_keys(self, email: str, client: str) -> list[tuple[str, Budget]]:
        email = email.strip().lower()
        return [
            self._login_keys(email, client)[0],
            (self._key(SECOND_FACTORS_PER_ACCOUNT, email), SECOND_FACTORS_PER_ACCOUNT),
        ]

    async def reserve_second_factor(self, email: str, client: str) -> int:
        """Reserve one try of a code, recovery code or passkey after this account's password, counted
        with its password checks from this client and with every try for the account."""
        return _seconds(await self.counters.reserve(self._second_factor_keys(email, client), time.time()))

    async def second_factor_succeeded(self, email: str, client: str) -> None:
        for key, _ in self._second_factor_keys(email, client):
            await self.counters.forget(key)

    async def reserve_passkey_sign_in(self, client: str) -> int:
        """Reserve one sign-in by a passkey alone from this client."""
        key = self._key(PASSKEYS_PER_CLIENT, client)
        return _seconds(await self.counters.reserve([(key, PASSKEYS_PER_CLIENT)], time.time()))

    async def passkey_sign_in_succeeded(self, client: str) -> None:
        await self.counters.forget(self._key(PASSKEYS_PER_CLIENT, client))

    async def reserve_password_reset(self, email: str, client: str) -> int:
        """Reserve one reset mail to this address asked by this client, whether or not it has an account
        (a wait must not tell which)."""
        keys = [
            (self._key(RESETS_PER_EMAIL, email.strip().lower()), RESETS_PER_EMAIL),
            (self._key(RESETS_PER_CLIENT, client), RESETS_PER_CLIENT),
        ]
        return _seconds(await self.counters.reserve(keys, time.time()))

    async def reserve_confirmation(self, user_id: str) -> int:
        """Reserve one more confirmation mail for this account."""
        key = self._key(CONFIRMATIONS_PER_ACCOUNT, user_id)
        return _seconds(await self.counters.reserve([(key, CONFIRMATIONS_PER_ACCOUNT)], time.time()))

    async def reserve_signup(self, client: str) -> int:
        key = self._key(SIGNUPS_PER_CLIENT, client)
        return _seconds(await self.counters.reserve([(key, SIGNUPS_PER_CLIENT)], time.time()))


def _seconds(wait: float) -> int:
    return math.ceil(wait) if wait > 0 else 0


def login_throttle(request: Request[Any, Any, Any]) -> LoginThrottle:
    settings: Settings = request.app.state.settings
    redis: Redis | None = request.app.state.redis
    counters: AttemptCounters | None = request.app.state.get(_STATE_KEY)
    if counters is None:  # made at the first attempt, after the stores are settled
        counters = request.app.state[_STATE_KEY] = (
            RedisCounters(redis, f"{settings.redis_prefix}login:")
            if redis is not None
            else StoreCounters(request.app.stores.get(LOGIN_ATTEMPT_STORE))
        )
    return LoginThrottle(counters, derived_secret(settings, "login"))


def login_client(request: Request[Any, Any, Any]) -> str:
    """The client as the trusted proxies name it, counted as the public endpoints count it."""
    settings: Settings = request.app.state.settings
    return client_network(client_address(request.scope, settings.trusted_proxies))
