"""Redis clients with timeouts, and the record of whether Redis answers.

Redis holds what the processes share (rate limits, the cache generation, console sessions), never what
must not be lost. So when it stops answering, or freezes and answers nothing, the public endpoints go
on with per-process rate limits and no cache is trusted; nothing waits on it longer than its timeout.
After a failure Redis is left alone for a moment rather than costing every request a timeout.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from redis.asyncio import Redis

REDIS_TIMEOUT_SECONDS = 2.0
"""Connect and socket timeout of every Redis call: a frozen Redis costs a request at most this."""
RETRY_AFTER_SECONDS = 1.0
"""After a failure, how long callers use their fallback before they ask Redis again."""

logger = logging.getLogger("hearken.redis")


def connect_redis(url: str, **options: Any) -> Redis:
    """A client that gives up within REDIS_TIMEOUT_SECONDS instead of waiting for ever."""
    return Redis.from_url(
        url,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
        **options,
    )


class RedisOutage:
    """Whether the last call to Redis failed; logged once when it goes and once when it is back."""

    def __init__(self) -> None:
        self.down = False
        self._retry_at = 0.0

    def should_try(self) -> bool:
        return not self.down or time.monotonic() >= self._retry_at

    def failed(self, error: BaseException) -> None:
        self._retry_at = time.monotonic() + RETRY_AFTER_SECONDS
        if not self.down:
            self.down = True
            logger.warning(
                "Redis is unreachable (%s): rate limits are counted per process and caches are not "
                "trusted until it answers again",
                type(error).__name__,
            )

    def answered(self) -> None:
        if self.down:
            self.down = False
            logger.warning("Redis answers again: rate limits and caches are shared again")
