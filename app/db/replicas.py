"""PostgreSQL streaming replicas and how far behind the primary each one is.

Every process checks each replica once a second (never per request): a replica that does not answer
within a second, is not a standby, or has replayed the primary's log more than the lag bound late is
left out until a later check finds it well again. The lag is `now() - pg_last_xact_replay_timestamp()`
on the replica, except when it has replayed everything the primary had written when the check began:
then it is 0 (an idle primary writes no transaction, so the timestamp alone would grow for ever).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.operations.metrics import REPLICA_LAG, REPLICA_SERVING

CHECK_SECONDS = 1.0
"""How often each process asks each replica for its lag."""
CHECK_TIMEOUT_SECONDS = 2.0
"""A check not answered within this leaves the replica out (and the next one starts a second later)."""

_PRIMARY_POSITION = text("SELECT pg_current_wal_lsn()::text")
_REPLICA_LAG = text(
    "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() >= CAST(:primary AS pg_lsn), "
    "EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())"
)

logger = logging.getLogger("hearken.replicas")


@dataclass
class Replica:
    name: str
    """host:port, for the log (never the URL: it may hold a password)."""
    engine: AsyncEngine
    """The reads' pool; each checkout is pinged first, so a replica gone since the last check is seen
    before a request's query fails on it."""
    checker: AsyncEngine
    """One connection of its own for the lag checks, named `hearken lag check` on the server."""
    lag: float | None = None
    """Seconds behind the primary at the last check; None: unknown (not answering, not a standby)."""
    usable: bool = False

    def failed(self, why: str) -> None:
        if self.usable:
            logger.warning("read replica %s left out: %s; its reads go to the primary", self.name, why)
        self.usable = False
        REPLICA_SERVING.labels(self.name).set(0)


@dataclass
class ReplicaSet:
    primary: AsyncEngine
    replicas: list[Replica]
    max_lag: float
    _turn: itertools.count[int] = field(default_factory=itertools.count)

    def pick(self) -> Replica | None:
        """The next usable replica in turn, or None: read the primary."""
        usable = [replica for replica in self.replicas if replica.usable]
        return usable[next(self._turn) % len(usable)] if usable else None

    async def check(self) -> None:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS), self.primary.connect() as connection:
                position = (await connection.execute(_PRIMARY_POSITION)).scalar_one()
        except (DBAPIError, TimeoutError, OSError) as error:
            for replica in self.replicas:
                replica.failed(f"the primary's log position could not be read ({type(error).__name__})")
            return
        await asyncio.gather(*(self._check(replica, position) for replica in self.replicas))
        for replica in self.replicas:
            REPLICA_LAG.labels(replica.name).set(-1 if replica.lag is None else replica.lag)

    async def _check(self, replica: Replica, position: str) -> None:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS), replica.checker.connect() as connection:
                standby, caught_up, behind = (
                    await connection.execute(_REPLICA_LAG, {"primary": position})
                ).one()
        except (DBAPIError, TimeoutError, OSError) as error:
            replica.lag = None
            replica.failed(f"it does not answer ({type(error).__name__})")
            return
        replica.lag = 0.0 if caught_up else (float(behind) if behind is not None else None)
        if not standby:
            replica.failed("it is not a standby (promoted?)")
        elif replica.lag is None or replica.lag > self.max_lag:
            replica.failed(f"it lags more than {self.max_lag:g} s behind the primary")
        elif not replica.usable:
            replica.usable = True
            REPLICA_SERVING.labels(replica.name).set(1)
            logger.warning(
                "read replica %s serves reads (%.1f s behind the primary)", replica.name, replica.lag
            )

    async def close(self) -> None:
        for replica in self.replicas:
            await replica.engine.dispose()
            await replica.checker.dispose()


def replica_set(
    primary: AsyncEngine,
    urls: tuple[str, ...],
    max_lag: float,
    connect_args: dict[str, object],
    pool_timeout: float,
) -> ReplicaSet:
    """The replicas' engines take the primary's connection settings (timeouts, statement deadline)."""
    return ReplicaSet(primary, [_replica(url, connect_args, pool_timeout) for url in urls], max_lag)


def _replica(url: str, connect_args: dict[str, object], pool_timeout: float) -> Replica:
    parts = urlsplit(url)
    name = f"{parts.hostname}:{parts.port or 5432}"
    engine = create_async_engine(
        url,
        pool_size=10,
        max_overflow=10,
        pool_timeout=pool_timeout,
        pool_pre_ping=True,
        connect_args={**connect_args, "application_name": "hearken"},
        hide_parameters=True,
    )
    checker = create_async_engine(
        url,
        pool_size=1,
        max_overflow=0,
        pool_pre_ping=True,
        connect_args={**connect_args, "application_name": "hearken lag check"},
        hide_parameters=True,
    )
    return Replica(name, engine, checker)
