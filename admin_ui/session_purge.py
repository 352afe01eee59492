"""Expired sessions and login counters are deleted while the application serves, not only when someone
happens to read them: a file store would otherwise keep every abandoned session on disk for good. Redis
expires its keys itself, so only stores that need sweeping (files, memory) are swept."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar

from admin_ui.sessions import LOGIN_ATTEMPT_STORE, SESSION_STORE

PURGE_EVERY_SECONDS = 3600
logger = logging.getLogger("hearken")


async def purge_expired_entries(app: Litestar) -> None:
    for name in (SESSION_STORE, LOGIN_ATTEMPT_STORE):
        store = app.stores.get(name)
        delete_expired = getattr(store, "delete_expired", None)
        if delete_expired is not None:
            await delete_expired()


async def _purge_forever(app: Litestar) -> None:
    while True:
        try:
            await purge_expired_entries(app)
        except OSError as exc:  # a full or unreadable disk must not end the sweeping
            logger.warning("could not purge expired console sessions: %s", type(exc).__name__)
        await asyncio.sleep(PURGE_EVERY_SECONDS)


@asynccontextmanager
async def session_purge(app: Litestar) -> AsyncIterator[None]:
    task = asyncio.create_task(_purge_forever(app))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
