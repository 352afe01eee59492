"""Console sessions and login-attempt counters live in a server-side store: files under var/ by default,
Redis when HEARKEN_REDIS_URL is set (several workers share it).

A session is stored only once someone signs in: an anonymous visit (the login page, a made-up cookie)
writes nothing and gets no session cookie. Redis drops expired entries itself; a file store is swept by
`purge_expired_entries` while the application serves."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar.connection import ASGIConnection
from litestar.middleware.session.server_side import ServerSideSessionBackend, ServerSideSessionConfig
from litestar.stores.base import Store
from litestar.stores.file import FileStore
from litestar.stores.redis import RedisStore
from litestar.types import Empty, Message, ScopeSession
from redis.exceptions import RedisError

from app.config import Settings
from app.db.redis_connection import connect_redis
from app.db.transactions import answer_unavailable

SESSION_STORE = "console_sessions"
LOGIN_ATTEMPT_STORE = "console_login_attempts"
SESSION_COOKIE = "hearken_session"
SESSION_LIFETIME = 14 * 24 * 3600
ROTATE = "_rotate_session_id"
"""Set in a session to give it a new id when it is saved (at login: no session fixation)."""
_ROTATED_ID = "hearken.rotated_session_id"

logger = logging.getLogger("hearken.console")


class ConsoleFileStore(FileStore):
    """A file store that finds nothing to delete before its directory exists: Litestar makes the
    directory only after the application's own lifespan hooks (the first sweep among them) have started,
    so on a fresh install the first sweep may come first, and `hearken sessions clear` never starts it."""

    async def delete_expired(self) -> None:
        if await self.path.exists():
            await super().delete_expired()

    async def delete_all(self) -> None:
        if await self.path.exists():
            await super().delete_all()


def console_stores(settings: Settings, var_dir: Path = Path("var")) -> dict[str, Store]:
    if settings.redis_url:
        redis = RedisStore(connect_redis(settings.redis_url), namespace="hearken")
        return {
            SESSION_STORE: redis.with_namespace("console_sessions"),
            LOGIN_ATTEMPT_STORE: redis.with_namespace("console_login_attempts"),
        }
    return {
        SESSION_STORE: ConsoleFileStore(var_dir / "console" / "sessions", create_directories=True),
        LOGIN_ATTEMPT_STORE: ConsoleFileStore(
            var_dir / "console" / "login_attempts", create_directories=True
        ),
    }


def secure_cookies(settings: Settings) -> bool:
    return settings.is_production or settings.base_url.startswith("https://")


def cookie_name(settings: Settings, name: str) -> str:
    """Where cookies are Secure, the `__Host-` prefix makes browsers refuse the cookie from any other
    host (a sibling subdomain cannot plant one) and from plain http."""
    return f"__Host-{name}" if secure_cookies(settings) else name


def derived_secret(settings: Settings, purpose: str) -> str:
    """One secret per purpose, so a leak of one (say the CSRF key) says nothing about another."""
    return hmac.new(settings.secret_key.encode(), purpose.encode(), hashlib.sha256).hexdigest()


class RotatingSessionBackend(ServerSideSessionBackend):
    """A server-side session whose id can be replaced on save, dropping the old id from the store."""

    def get_session_id(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str:
        rotated = connection.scope.get(_ROTATED_ID)  # type: ignore[misc]
        return str(rotated) if rotated else super().get_session_id(connection)

    async def store_in_message(
        self, scope_session: ScopeSession, message: Message, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> None:
        if isinstance(scope_session, dict) and scope_session.pop(ROTATE, False):
            old = connection.cookies.get(self.config.key)
            if old:
                await self.delete(old, store=self.config.get_store_from_app(connection.scope["app"]))
            connection.scope[_ROTATED_ID] = secrets.token_hex(self.config.session_id_bytes)  # type: ignore[literal-required]
        try:
            if not scope_session:  # nobody is signed in: store nothing, and forget any cookie that was sent
                if connection.cookies.get(self.config.key):
                    await super().store_in_message(Empty, message, connection)
                return
            await super().store_in_message(scope_session, message, connection)
        except RedisError as error:
            # Redis went away after the session was read (a failover, say): the answer has not left
            # yet, so it becomes 503 and the request's transaction is rolled back, rather than a 500.
            logger.warning("the console session could not be saved (%s); answering 503", type(error).__name__)
            answer_unavailable(message, connection.scope)


@dataclass
class ConsoleSessionConfig(ServerSideSessionConfig):
    _backend_class = RotatingSessionBackend


def session_config(settings: Settings) -> ConsoleSessionConfig:
    return ConsoleSessionConfig(
        store=SESSION_STORE,
        key=cookie_name(settings, SESSION_COOKIE),
        path="/",
        max_age=SESSION_LIFETIME,
        secure=secure_cookies(settings),
        httponly=True,
        samesite="lax",
        renew_on_access=True,
    )
