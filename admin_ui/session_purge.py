"""Expired sessions and login counters are deleted while the application serves, not only when someone
happens to read them: a file store would otherwise keep every abandoned session on disk for good. Redis
expires its keys itself, so only stores that need sweeping (files, memory) are swept."""

from __future__ import annotations

from litestar import Litestar

from admin_ui.sessions import LOGIN_ATTEMPT_STORE, SESSION_STORE

PURGE_EVERY_SECONDS = 3600


async def purge_expired_entries(app: Litestar) -> None:
    for name in (SESSION_STORE, LOGIN_ATTEMPT_STORE):
        store = app.stores.get(name)
        delete_expired = getattr(store, "delete_expired", None)
        if delete_expired is not None:
            await delete_expired()
