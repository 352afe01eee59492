"""A budget of image bytes stored per client address per project, over a fixed window (a day unless
configured), so one visitor cannot spend more than a small share of a project's image quota: project
keys are public, and without it two dozen requests could fill a project's quota and refuse every image
after them.

Like the request budgets, a window opens at a key's first image and lasts the configured seconds; keys
hold an HMAC of the client address (an IPv6 client by its /64), never the address. Bytes are added only
when they fit: a submission over the budget is refused whole and spends nothing. On Redis the check and
the addition are one script, so every worker shares the budget; while Redis does not answer, this
process's own windows take over.
"""

from __future__ import annotations

import math
import time
from typing import Protocol
from uuid import UUID

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.db.redis_connection import RedisOutage

Spent = tuple[bool, float]
"""Whether the bytes fitted (and were added), and the seconds until the window closes."""


class ByteWindows(Protocol):
    async def spend(self, key: str, amount: int, limit: int, seconds: int) -> Spent:
        """Add `amount` to the key's window if it stays within `limit`."""
        ...


class MemoryByteWindows:
    """Windows of this process."""

    SWEEP_ABOVE = 10_000

    def __init__(self) -> None:
        self._windows: dict[str, tuple[int, float]] = {}

    async def spend(self, key: str, amount: int, limit: int, seconds: int) -> Spent:
        now = time.monotonic()
        if len(self._windows) >= self.SWEEP_ABOVE:  # distinct clients cannot grow the dict without bound
            self._windows = {k: window for k, window in self._windows.items() if window[1] > now}
        used, ends = self._windows.get(key, (0, 0.0))
        if ends <= now:
            used, ends = 0, now + seconds
        if used + amount > limit:
            return False, ends - now
        self._windows[key] = (used + amount, ends)
        return True, ends - now


SPEND_SCRIPT = """
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  used = 0
  ttl = tonumber(ARGV[3])
end
if used + tonumber(ARGV[1]) > tonumber(ARGV[2]) then
  return {0, ttl}
end
redis.call('SET', KEYS[1], used + tonumber(ARGV[1]), 'PX', ttl)
return {1, ttl}
"""
"""KEYS: the window's key. ARGV: the bytes, the limit, the window (ms). Reply: 1 when added (0 when not),
and the ms left in the window."""


class RedisByteWindows:
    """Windows shared by every worker, with this process's own while Redis does not answer."""

    def __init__(self, client: Redis, prefix: str, outage: RedisOutage) -> None:
        self._client = client
        self._prefix = prefix
        self._outage = outage
        self._script = client.register_script(SPEND_SCRIPT)
        self._fallback = MemoryByteWindows()

    async def spend(self, key: str, amount: int, limit: int, seconds: int) -> Spent:
        if self._outage.should_try():
            try:
                added, ttl = await self._script(
                    keys=[self._prefix + key], args=[amount, limit, seconds * 1000]
                )
            except RedisError as error:
                self._outage.failed(error)
            else:
                self._outage.answered()
                return bool(added), int(ttl) / 1000
        return await self._fallback.spend(key, amount, limit, seconds)

    async def close(self) -> None:
        await self._client.aclose()


class ImageBudget:
    def __init__(self, windows: ByteWindows, limit_bytes: int, seconds: int) -> None:
        self._windows = windows
        self.limit_bytes = limit_bytes
        self.seconds = seconds

    async def spend(self, project_key: UUID, client_digest: str, amount: int) -> int | None:
        """Count `amount` bytes of images for this client and project; None when they fit, else the
        whole seconds until the client's window closes (nothing is counted)."""
        key = f"image-bytes:{project_key.hex}:client:{client_digest}"
        added, expires_in = await self._windows.spend(key, amount, self.limit_bytes, self.seconds)
        return None if added else max(1, math.ceil(expires_in))

    async def close(self) -> None:
        if isinstance(self._windows, RedisByteWindows):
            await self._windows.close()
