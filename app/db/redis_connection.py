"""Redis clients with timeouts, and the record of whether Redis answers.

Redis holds what the processes share (rate limits, the cache generation, console sessions), never what
must not be lost. So when it stops answering, or freezes and answers nothing, the public endpoints go
on with per-process rate limits and no cache is trusted; nothing waits on it longer than its timeout.
After a failure Redis is left alone for a moment rather than costing every request a timeout.

A `redis+sentinel://host:port[,host:port...]/service_name[/db]` URL names Redis Sentinels instead of
one server: every client then asks the sentinels which server is the primary of `service_name` when it
connects, and again after a connection fails, so a failover is followed within a few seconds (the
sentinels' own down-after time plus one RETRY_AFTER_SECONDS).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from redis.asyncio import Redis
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

REDIS_TIMEOUT_SECONDS = 2.0
"""Connect and socket timeout of every Redis call: a frozen Redis costs a request at most this."""
RETRY_AFTER_SECONDS = 1.0
"""After a failure, how long callers use their fallback before they ask Redis again."""

logger = logging.getLogger("hearken.redis")


SENTINEL_SCHEME = "redis+sentinel"
TIMEOUTS = {"socket_connect_timeout": REDIS_TIMEOUT_SECONDS, "socket_timeout": REDIS_TIMEOUT_SECONDS}


@dataclass(frozen=True)
class SentinelAddress:
    """What a `redis+sentinel://` URL names: the sentinels, the monitored service and the database."""

    sentinels: tuple[tuple[str, int], ...]
    service_name: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    """The credentials of the Redis servers (the sentinels themselves are asked without any)."""

    @classmethod
    def parse(cls, url: str) -> SentinelAddress:
        parts = urlsplit(url)
        if parts.scheme != SENTINEL_SCHEME:
            raise ValueError(f"a Redis Sentinel URL starts with {SENTINEL_SCHEME}://")
        hosts = parts.netloc.rsplit("@", 1)[-1]
        path = [segment for segment in parts.path.split("/") if segment]
        if not hosts or not path or len(path) > 2:
            raise ValueError(
                "a Redis Sentinel URL looks like redis+sentinel://host:port[,host:port]/service_name[/db]"
            )
        try:
            sentinels = tuple(_host_port(item) for item in hosts.split(","))
            db = int(path[1]) if len(path) == 2 else 0
        except ValueError:
            raise ValueError("a Redis Sentinel URL has a port or a database that is not a number") from None
        return cls(
            sentinels=sentinels,
            service_name=unquote(path[0]),
            db=db,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )


def _host_port(item: str) -> tuple[str, int]:
    host, _, port = item.strip().rpartition(":")
    if not host:
        return item.strip(), 26379
    return host.strip("[]"), int(port)


def connect_redis(url: str, *, single_connection_client: bool = False) -> Redis:
    """A client that gives up within REDIS_TIMEOUT_SECONDS instead of waiting for ever: to one server
    (`redis://`, `rediss://`, `unix://`), or to whichever server the sentinels name as the primary."""
    if not url.startswith(SENTINEL_SCHEME + "://"):
        return Redis.from_url(url, single_connection_client=single_connection_client, **TIMEOUTS)
    address = SentinelAddress.parse(url)
    sentinel = Sentinel(address.sentinels, sentinel_kwargs=TIMEOUTS, **TIMEOUTS)
    pool = SentinelConnectionPool(
        address.service_name,
        sentinel,
        is_master=True,
        db=address.db,
        username=address.username,
        password=address.password,
        **TIMEOUTS,
    )
    client = SentinelClient(connection_pool=pool, single_connection_client=single_connection_client)
    client.auto_close_connection_pool = True  # closing the client closes its pool, as from_url's does
    client.sentinel = sentinel
    return client


class SentinelClient(Redis):
    """A client of the sentinels' primary; closing it also closes its connections to the sentinels."""

    sentinel: Sentinel

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await super().aclose(close_connection_pool)
        for client in self.sentinel.sentinels:
            await client.aclose()


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
