"""Live notifications between processes through Redis pub/sub."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from app.db.redis_connection import connect_redis
from app.live.bus import ListeningBus

PING_SECONDS = 5.0
"""How often the listening connection is checked; a Redis frozen for longer than twice this is down."""


class RedisBus(ListeningBus):
    kind = "Redis"

    def __init__(self, url: str, prefix: str) -> None:
        super().__init__()
        self.url = url
        self.channel = f"{prefix}live"
        self._publisher: Redis | None = None

    async def send(self, data: str) -> None:
        if self._publisher is None:
            self._publisher = connect_redis(self.url)
        await self._publisher.publish(self.channel, data)

    async def close(self) -> None:
        await super().close()
        if self._publisher is not None:
            await self._publisher.aclose()
            self._publisher = None

    @asynccontextmanager
    async def listen(self) -> AsyncIterator[AsyncIterator[str]]:
        client = connect_redis(self.url, single_connection_client=True)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
            yield self._notifications(pubsub)
        finally:
            await pubsub.aclose()
            await client.aclose()

    async def _notifications(self, pubsub: PubSub) -> AsyncIterator[str]:
        heard = pinged = time.monotonic()
        while True:
            message = await pubsub.get_message(timeout=1.0)
            now = time.monotonic()
            if message is not None:
                heard = now
                if message["type"] == "message":
                    data = message["data"]
                    yield data.decode() if isinstance(data, bytes) else str(data)
                continue
            if now - heard > 2 * PING_SECONDS:
                raise ConnectionError("Redis did not answer the listener's ping")
            if now - pinged > PING_SECONDS:
                pinged = now
                await pubsub.ping()
