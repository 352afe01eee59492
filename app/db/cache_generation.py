"""A number shared by every process that changes whenever projects, tokens or organizations change.

Workers cache project keys and token digests. Each request compares the current generation with the one
its cache was filled at and drops the cache when they differ, so a change made by any process (another
worker, the CLI, the console) is seen on the very next request. With Redis the generation is one key
(INCR to bump, GET to read); without it, the modification time of a small file next to the database,
which is correct across the processes of one machine (the setup without Redis).
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import Protocol

from redis.asyncio import Redis

from app.config import Settings

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


class RedisGeneration:
    """One Redis key. Reads use the caller's long-lived client; a bump (rare) uses its own connection
    so that it works from any event loop, the CLI's included."""

    def __init__(self, url: str, key: str, client: Redis | None = None) -> None:
        self.url = url
        self.key = key
        self.client = client

    async def current(self) -> int:
        if self.client is None:
            self.client = Redis.from_url(self.url)
        return int(await self.client.get(self.key) or 0)

    async def bump(self) -> None:
        async with Redis.from_url(self.url) as client:
            await client.incr(self.key)


def generation_key(settings: Settings) -> str:
    return f"{settings.redis_prefix}cache_generation"


def generation_file(settings: Settings) -> Path:
    """Next to an SQLite database file; otherwise in ./var beside the generated secret key."""
    if settings.is_sqlite:
        database = settings.database_url.split(":///", 1)[-1].split("?", 1)[0]
        if database and database != ":memory:":
            return Path(f"{database}.{GENERATION_FILE}")
    return Path("var") / GENERATION_FILE


def cache_generation(settings: Settings, client: Redis | None = None) -> CacheGeneration:
    if settings.redis_url:
        return RedisGeneration(settings.redis_url, generation_key(settings), client)
    return FileGeneration(generation_file(settings))
