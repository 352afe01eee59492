"""The periodic Mintlify import: every enabled integration every HEARKEN_MINTLIFY_SYNC_SECONDS, run by
exactly one process across all workers and machines.

Each integration row carries `next_sync_at`, its lease. Every process looks for due rows at start and
then every minute (or every interval, when that is shorter), and claims them with one UPDATE that moves
`next_sync_at` an interval ahead only where it is still due: on PostgreSQL a second process's UPDATE
waits on the row lock and then finds the row no longer due; on SQLite writers take turns. Whoever
claimed a row imports it; a process that dies meanwhile leaves it to the next interval.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from uuid import UUID

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import MintlifyIntegration
from app.db.transactions import unit_of_work
from app.integrations.mintlify_api import MintlifyError
from app.integrations.mintlify_integrations import import_mintlify_feedback
from app.timestamps import utc_now

LOOK_EVERY_SECONDS = 60


async def claim_due_imports(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings
) -> list[UUID]:
    """The integrations whose import is due, claimed by this process until the next interval."""
    now = utc_now()
    async with unit_of_work(session_maker) as session:
        claimed = await session.scalars(
            update(MintlifyIntegration)
            .where(MintlifyIntegration.next_sync_at <= now)
            .values(next_sync_at=now + timedelta(seconds=settings.mintlify_sync_seconds))
            .returning(MintlifyIntegration.id)
        )
        ids = list(claimed)
    return ids


async def run_due_imports(session_maker: async_sessionmaker[AsyncSession], settings: Settings) -> None:
    for integration_id in await claim_due_imports(session_maker, settings):
        # A failure is kept in last_error; the next interval tries again.
        with contextlib.suppress(MintlifyError):
            await import_mintlify_feedback(session_maker, settings, integration_id)
