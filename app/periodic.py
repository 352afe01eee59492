"""Jobs every server process runs beside its requests at an interval: retention, digests, imports, and
the sweeping of the process's own session stores.

The shared jobs claim their work in the database (a lease or a unique row), so running them in every
process is safe; the interval only decides how soon due work is found. A process looks once at start,
then every interval give or take a tenth, so processes started together drift apart.
HEARKEN_PERIODIC_JOBS=off keeps the shared jobs out of a process (a node meant only to serve requests;
tests that drive a job themselves).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from litestar import Litestar

Job = Callable[[Litestar], Awaitable[None]]
Lifespan = Callable[[Litestar], AbstractAsyncContextManager[None]]


def periodic(name: str, every_seconds: Callable[[Litestar], float], job: Job) -> Lifespan:
    """A lifespan hook that runs `job(app)` every `every_seconds(app)` for as long as the app serves."""
    logger = logging.getLogger(f"hearken.{name}")

    async def keep_running(app: Litestar) -> None:
        pause = every_seconds(app)
        while True:
            try:
                await job(app)
            except Exception:  # a database outage or a bug must not end the loop, nor the worker
                logger.exception("%s failed; trying again in about %s s", name, pause)
            await asyncio.sleep(pause * random.uniform(0.9, 1.1))

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        task = asyncio.create_task(keep_running(app), name=name)
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return lifespan
