"""Live notifications: a publish in one process wakes the subscribers of its channel in every process.

`live_bus(settings, engine)` picks the way the processes reach each other: Redis pub/sub when Redis is
configured, else PostgreSQL `LISTEN`/`NOTIFY` on PostgreSQL, else (SQLite: one process) nothing but this
process. `streams.py` turns a subscription into a Server-Sent Events stream of a conversation.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.live.bus import InProcessBus, LiveBus
from app.live.fanout import DROPPED, RESYNC, Subscription

__all__ = ["DROPPED", "RESYNC", "LiveBus", "Subscription", "live_bus", "publish", "running"]

_running: list[LiveBus] = []
"""The bus of the application serving in this process (set while it serves): what is published after
a commit, far from any request, goes through it."""


def live_bus(settings: Settings, engine: AsyncEngine) -> LiveBus:
    if settings.redis_url:
        from app.live.redis_bus import RedisBus

        return RedisBus(settings.redis_url, settings.redis_prefix)
    if not settings.is_sqlite:
        from app.live.postgres_bus import PostgresBus

        return PostgresBus(engine)
    return InProcessBus()


@contextmanager
def running(bus: LiveBus) -> Iterator[None]:
    _running.append(bus)
    try:
        yield
    finally:
        _running.remove(bus)


async def publish(channel: str, payload: str) -> None:
    """On the serving application's bus; nothing without one (the command line, a migration)."""
    if _running:
        await _running[-1].publish(channel, payload)
