"""Live notifications between processes through PostgreSQL `LISTEN`/`NOTIFY` (no Redis configured).

One connection per process listens; a publish is `pg_notify` on a pooled connection of the application's
engine. NOTIFY payloads are limited to 8000 bytes: only ids travel, the rows are read by the streams.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from app.live.bus import ListeningBus

CHANNEL = "hearken_live"
CHECK_SECONDS = 5.0
"""How often the listening connection is checked with a query when nothing came."""
CHECK_TIMEOUT_SECONDS = 3.0
CONNECT_TIMEOUT_SECONDS = 3


class PostgresBus(ListeningBus):
    kind = "PostgreSQL"

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self.engine = engine
        url = make_url(str(engine.url.render_as_string(hide_password=False)))
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def send(self, data: str) -> None:
        async with self.engine.connect() as connection:
            await connection.execute(
                text("SELECT pg_notify(:channel, :data)"), {"channel": CHANNEL, "data": data}
            )
            await connection.commit()

    @asynccontextmanager
    async def listen(self) -> AsyncIterator[AsyncIterator[str]]:
        connection = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
        )
        try:
            await connection.execute(f"LISTEN {CHANNEL}")
            yield self._notifications(connection)
        finally:
            await connection.close()

    async def _notifications(self, connection: psycopg.AsyncConnection) -> AsyncIterator[str]:
        checked = time.monotonic()
        while True:
            async for notify in connection.notifies(timeout=CHECK_SECONDS):
                yield notify.payload
            if time.monotonic() - checked >= CHECK_SECONDS:
                # A PostgreSQL that is frozen, or gone without closing the socket, sends nothing either.
                await asyncio.wait_for(connection.execute("SELECT 1"), CHECK_TIMEOUT_SECONDS)
                checked = time.monotonic()
