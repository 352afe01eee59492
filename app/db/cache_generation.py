"""A number shared by every process that changes whenever projects, tokens or organizations change.

Workers cache project keys and token digests. Each request compares the current generation with the one
its cache was filled at and drops the cache when they differ, so a change made by any process (another
worker, the CLI, the console) is seen on the very next request. With Redis the generation is one key
(INCR to bump, GET to read); without it, the modification time of a small file next to the database,
which is correct across the processes of one machine (the setup without Redis).

Redis keeps the key in memory only: after a restart the key is gone. It then starts again at a random
number (the first reader or bumper sets it), so no process can mistake a new value for one it cached
before the restart. While Redis does not answer, the generation is unknown: every read gives a value
never seen before, so caches are refilled from the database instead of trusted. A bump that failed is
made once Redis answers again, so that processes that did not notice the outage drop their caches too.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import logging
import os
import random
import time
from pathlib import Path
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.config import Settings
from app.db.redis_connection import RedisOutage, connect_redis

logger = logging.getLogger("hearken.cache")

GENERATION_FILE = "cache_generation"


class CacheGeneration(Protocol):
    async def current(self) -> int: ...

    async def bump(self) -> None: ...


class FileGeneration:
    """The generation is the file's st_mtime_ns, set explicitly so that it strictly increases."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def current(self) -> int:
        try:
            return os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            return 0

    async def bump(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            # The lock serializes bumpers, so two changes within one clock tick still get two values.
            fcntl.flock(fd, fcntl.LOCK_EX)
            stamp = max(time.time_ns(), os.fstat(fd).st_mtime_ns + 1)
            os.utime(fd, ns=(stamp, stamp))
        finally:
            os.close(fd)


def fresh_epoch() -> int:
    """A random start for a generation key that Redis lost: far from any value seen before it."""
    return random.randrange(1 << 40, 1 << 52)


_UNKNOWN = itertools.count(-1, -1)
_OWED_BUMPS: set[str] = set()
"""Generation keys whose bump failed in this process: made on the next successful read."""


def unknown_generation() -> int:
    """A generation no cache holds (negative, never repeated): what a read gives while Redis is down."""
    return next(_UNKNOWN)


class RedisGeneration:
    """One Redis key. Reads use the caller's long-lived client; a bump (rare) uses its own connection
    so that it works from any event loop, the CLI's included."""

    def __init__(
        self, url: str, key: str, client: Redis | None = None, outage: RedisOutage | None = None
    ) -> None:
        self.url = url
        self.key = key
        self.client = client
        self.outage = outage or RedisOutage()

    async def current(self) -> int:
        if not self.outage.should_try():
            return unknown_generation()
        if self.client is None:
            self.client = connect_redis(self.url)
        try:
            if self.key in _OWED_BUMPS:
                await self._increment(self.client)
                _OWED_BUMPS.discard(self.key)
            value = await self.client.get(self.key)
            if value is None:
                await self.client.set(self.key, fresh_epoch(), nx=True)
                value = await self.client.get(self.key)
        except RedisError as error:
            self.outage.failed(error)
            return unknown_generation()
        self.outage.answered()
        return int(value or 0)

    async def bump(self) -> None:
        """Never fails the committed change it follows: if Redis is down the bump is owed."""
        try:
            async with connect_redis(self.url) as client:
                await self._increment(client)
        except RedisError as error:
            logger.warning("the cache generation could not be bumped (%s); it will be", type(error).__name__)
            _OWED_BUMPS.add(self.key)

    async def _increment(self, client: Redis) -> None:
        await client.set(self.key, fresh_epoch(), nx=True)
        await client.incr(self.key)


def generation_key(settings: Settings) -> str:
    return f"{settings.redis_prefix}cache_generation"


def generation_file(settings: Settings) -> Path:
    """Next to an SQLite database file; otherwise in ./var beside the generated secret key, named for
    the database (a digest of its URL), so that two servers on one machine with databases of their own
    do not empty each other's caches."""
    if settings.is_sqlite:
        database = settings.database_url.split(":///", 1)[-1].split("?", 1)[0]
        if database and database != ":memory:":
            return Path(f"{database}.{GENERATION_FILE}")
    digest = hashlib.sha256(settings.database_url.encode()).hexdigest()[:16]
    return Path("var") / f"{GENERATION_FILE}.{digest}"


def cache_generation(
    settings: Settings, client: Redis | None = None, outage: RedisOutage | None = None
) -> CacheGeneration:
    if settings.redis_url:
        return RedisGeneration(settings.redis_url, generation_key(settings), client, outage)
    return FileGeneration(generation_file(settings))
