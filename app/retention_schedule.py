"""The periodic retention job beside the server: every process looks for projects whose retention is
due every few minutes; the lease on each project (app.services.retention) lets one of them run it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.services.retention import run_due_retention

logger = logging.getLogger("hearken.retention")

LOOK_EVERY_SECONDS = 300


async def _keep_applying(session_maker: async_sessionmaker[AsyncSession]) -> None:
    while True:
        try:
            for removed in await run_due_retention(session_maker):
                if removed.feedback or removed.ratings or removed.contact_messages:
                    logger.info(
                        "retention of project %s deleted %s feedback items, %s ratings, %s contact messages",
                        removed.project_id,
                        removed.feedback,
                        removed.ratings,
                        removed.contact_messages,
                    )
        except Exception:  # a database outage or a bug must not end the loop, nor the worker
            logger.exception("retention failed; trying again in %s s", LOOK_EVERY_SECONDS)
        await asyncio.sleep(LOOK_EVERY_SECONDS)


@contextlib.asynccontextmanager
async def periodic_retention(app: Litestar) -> AsyncIterator[None]:
    """Runs the retention job beside the server for as long as it serves."""
    task = asyncio.create_task(_keep_applying(app.state.session_maker))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
