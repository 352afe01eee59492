"""Which reads a replica serves: those of a GET whose handler says `opt=REPLICA_READS` (the lists,
statistics and exports of the API and the console), asked by a caller who has not written lately.

- A request that writes (any other method) reads the primary, and so does a session once it has
  written, locked a row or holds changes not yet flushed: its reads must see its own writes.
- After a caller's write (an API token, or a member in one organization) answered 2xx or 3xx, their
  reads go to the primary for the lag bound plus one check interval: a page shown right after a form
  post (POST, redirect, GET) or an API read right after a change shows the change, whichever process
  answers. The marks are in Redis when it is configured (every process sees them) and in the process
  too; while Redis does not answer, every read of a caller goes to the primary, never a stale one.
- A replica that cannot be reached at the moment a request first reads from it is left out at once and
  the request reads the primary; one that stopped answering or lags too much is left out by the
  periodic check (`app/db/replicas.py`).
Other callers see a change once the replica has replayed it: within the lag bound.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol
from uuid import UUID

from litestar import Litestar
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.types import Scope
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import ORMExecuteState, Session

from app.db.redis_connection import RedisOutage
from app.db.replicas import CHECK_SECONDS, Replica, ReplicaSet

_REPLICA_OPT = "hearken_replica_reads"
REPLICA_READS = {_REPLICA_OPT: True}
"""A route handler's opt: a GET whose reads a replica may serve."""
READ_FROM = "hearken_read_from"
"""Session.info key: the Replica this session reads from (absent: the primary)."""
_DECISION = "hearken_read_decision"
"""ASGI scope key: the request's decision, made once (the session and an export's stream share it)."""
_SAFE_METHODS = frozenset({"GET", "HEAD"})
_MEMORY_LIMIT = 100_000

logger = logging.getLogger("hearken.replicas")


class Caller(Protocol):
    """What the authentication puts on a request (an organization scope)."""

    org_id: UUID
    actor: str
    user_id: UUID | None


class RecentWriters:
    """Callers who wrote within `window` seconds, in this process and in Redis."""

    def __init__(self, window: float, redis: Redis | None, outage: RedisOutage, prefix: str) -> None:
        self.window = window
        self.redis = redis
        self.outage = outage
        self.prefix = f"{prefix}wrote:"
        self._until: dict[str, float] = {}

    async def wrote(self, caller: str) -> None:
        now = time.monotonic()
        if len(self._until) >= _MEMORY_LIMIT:
            self._until = {key: until for key, until in self._until.items() if until > now}
        self._until[caller] = now + self.window
        if self.redis is None or not self.outage.should_try():
            return
        try:
            await self.redis.set(self.prefix + caller, b"1", px=int(self.window * 1000))
        except RedisError as error:
            self.outage.failed(error)

    async def wrote_lately(self, caller: str) -> bool:
        if self._until.get(caller, 0.0) > time.monotonic():
            return True
        if self.redis is None:
            return False
        if not self.outage.should_try():
            return True
        try:
            return bool(await self.redis.exists(self.prefix + caller))
        except RedisError as error:
            self.outage.failed(error)
            return True


class ReadRouting:
    def __init__(self, replicas: ReplicaSet, writers: RecentWriters) -> None:
        self.replicas = replicas
        self.writers = writers

    async def replica_for(self, scope: Scope) -> Replica | None:
        """The replica this request's reads may come from, or None: the primary."""
        if _DECISION in scope:
            decided: Replica | None = scope[_DECISION]  # type: ignore[literal-required]
            return decided
        replica = None
        handler = scope.get("route_handler")
        caller = caller_key(scope)
        if (
            scope.get("method") in _SAFE_METHODS
            and handler is not None
            and handler.opt.get(_REPLICA_OPT)
            and caller is not None
        ):
            candidate = self.replicas.pick()
            if candidate is not None and not await self.writers.wrote_lately(caller):
                replica = candidate
        scope[_DECISION] = replica  # type: ignore[literal-required]
        return replica

    async def answered(self, scope: Scope, status: int) -> None:
        """A change that was stored: its caller reads the primary for a while."""
        if scope.get("method") in _SAFE_METHODS or not 200 <= status < 400:
            return
        if (caller := caller_key(scope)) is not None:
            await self.writers.wrote(caller)


def caller_key(scope: Scope) -> str | None:
    """Who asks: a member in an organization, or a token (by its display prefix); hashed, so that no
    address is written to Redis."""
    auth: Caller | None = scope.get("auth")
    if auth is None or not hasattr(auth, "org_id"):
        return None
    user_id = getattr(auth, "user_id", None)
    who = str(user_id) if user_id is not None else auth.actor
    return hashlib.sha256(f"{auth.org_id}/{who}".encode()).hexdigest()[:32]


def read_routing(replicas: ReplicaSet, redis: Redis | None, outage: RedisOutage, prefix: str) -> ReadRouting:
    return ReadRouting(replicas, RecentWriters(replicas.max_lag + CHECK_SECONDS, redis, outage, prefix))


async def route_session(state: State, scope: Scope, session: AsyncSession) -> None:
    """Let `session` read from the replica this request may read from."""
    routing: ReadRouting | None = state.get("read_routing")
    if routing is not None and (replica := await routing.replica_for(scope)) is not None:
        session.info[READ_FROM] = replica


async def read_sessions(connection: ASGIConnection[Any, Any, Any, Any]) -> Callable[[], AsyncSession]:
    """Sessions for reads that go on after the request's own session closed (an export's stream),
    reading from where the request's reads came from."""
    state = connection.app.state
    session_maker: Callable[[], AsyncSession] = state.session_maker
    routing: ReadRouting | None = state.get("read_routing")
    replica = None if routing is None else await routing.replica_for(connection.scope)

    def make() -> AsyncSession:
        session = session_maker()
        if replica is not None:
            session.info[READ_FROM] = replica
        return session

    return make


async def check_replicas(app: Litestar) -> None:
    """How far behind each replica is, checked by a periodic job of every process (`app/periodic.py`)."""
    routing: ReadRouting = app.state.read_routing
    await routing.replicas.check()


@event.listens_for(Session, "do_orm_execute")
def _read_from_replica(state: ORMExecuteState) -> None:
    session = state.session
    replica: Replica | None = session.info.get(READ_FROM)
    if replica is None:
        return
    statement: Any = state.statement
    if (
        not state.is_select
        or getattr(statement, "_for_update_arg", None) is not None
        or session.new
        or session.dirty
        or session.deleted
    ):
        session.info.pop(READ_FROM, None)  # from here on this session reads what it writes
        return
    bind = replica.engine.sync_engine
    try:
        session.connection(bind_arguments={"bind": bind})  # connected once, then the same connection
    except DBAPIError as error:
        replica.failed(f"a connection failed ({type(error.orig).__name__})")
        session.info.pop(READ_FROM, None)
        return
    state.bind_arguments["bind"] = bind


@event.listens_for(Session, "after_flush")
def _reads_follow_writes(session: Session, _context: Any) -> None:
    session.info.pop(READ_FROM, None)
