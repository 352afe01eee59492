"""Mintlify page feedback: a project's import settings, and the import itself.

An import asks from the newest createdAt the last complete import saw (records at that very time come
again and are skipped by their claimed ids), follows the cursor while Mintlify has more, and commits
each page's items as it goes. The watermark moves only when every page was read, since the order of
the pages is Mintlify's. A failure is kept in `last_error` in words and the next import tries again.
An import asked for by a request stops after the page that spends its time (SYNC_SECONDS), answers
what it stored, and leaves the rest to the periodic import at its next look, so that a large backlog
never outlasts the request's deadline.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from uuid import UUID

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import FeedbackSource, MintlifyIntegration, Project
from app.db.secret_box import secret_box
from app.db.transactions import unit_of_work
from app.integrations.claims import claim
from app.integrations.integration_rows import IntegrationRows
from app.integrations.mintlify_api import FeedbackPage, MintlifyError, feedback_page
from app.integrations.mintlify_items import page_feedback
from app.outgoing_tls import tls_context
from app.services.feedback_items import FeedbackItems
from app.timestamps import utc_now
from tenants.scope import operator_scope

logger = logging.getLogger("hearken.imports")

IMPORTER = "Mintlify import"
"""Who the feedback history names as the creator of imported items."""
MAX_PAGES = 1000
"""An upstream that never stops saying hasMore ends an import here (100,000 records)."""
SYNC_SECONDS = 4.0
"""How long an import asked for by a request goes on reading pages (a page takes well under a second
on a quiet machine; the request's deadline is 8.5 s)."""


class MintlifyIntegrations(IntegrationRows[MintlifyIntegration]):
    """The Mintlify integration of one project; removed, it stops importing."""

    model = MintlifyIntegration
    name = "Mintlify"

    async def enable(self, mintlify_project_id: str, api_key: str) -> MintlifyIntegration:
        """Store the settings; another Mintlify project starts again from its beginning. The first
        periodic import comes one interval later; "Sync now" imports at once."""
        integration = await self.find()
        if integration is None:
            integration = MintlifyIntegration(
                project_id=self.project.id,
                mintlify_project_id=mintlify_project_id,
                sealed_api_key="",
                imported=0,
                next_sync_at=utc_now() + timedelta(seconds=self.settings.mintlify_sync_seconds),
            )
            self.session.add(integration)
        elif integration.mintlify_project_id != mintlify_project_id:
            integration.mintlify_project_id = mintlify_project_id
            integration.newest_created_at = None
        integration.sealed_api_key = self.box.seal(api_key)
        integration.last_error = None
        await self.session.flush()
        return integration


async def import_mintlify_feedback(
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    integration_id: UUID,
    seconds: float | None = None,
) -> int:
    """Run one import; the number of new items. Raises MintlifyError (kept in last_error too). With
    `seconds`, no page is asked for once they are spent, and the periodic import goes on from there."""
    stop_at = None if seconds is None else time.monotonic() + seconds
    async with session_maker() as session:
        integration = await session.get(MintlifyIntegration, integration_id)
        if integration is None:
            return 0
        project_id, mintlify_project_id = integration.project_id, integration.mintlify_project_id
        watermark = integration.newest_created_at
        api_key = secret_box(settings.secret_key).open(integration.sealed_api_key)
    imported = 0
    newest = watermark
    try:
        if api_key is None:
            raise MintlifyError(
                "the API key can no longer be read here (the secret key changed); save it again"
            )
        async with httpx.AsyncClient(verify=tls_context()) as client:
            cursor: str | None = None
            for _ in range(MAX_PAGES):
                page = await feedback_page(
                    client,
                    settings.mintlify_api_url,
                    mintlify_project_id,
                    api_key,
                    date_from=watermark,
                    cursor=cursor,
                )
                added, page_newest = await _store_page(session_maker, project_id, page)
                imported += added
                newest = max((m for m in (newest, page_newest) if m is not None), default=None)
                if not page.has_more or not page.next_cursor or page.next_cursor == cursor:
                    break
                cursor = page.next_cursor
                if stop_at is not None and time.monotonic() >= stop_at:
                    await _record(session_maker, settings, integration_id, imported, unfinished=True)
                    return imported
    except MintlifyError as error:
        await _record(session_maker, settings, integration_id, imported, error=error)
        raise
    await _record(session_maker, settings, integration_id, imported, newest=newest)
    return imported


async def _store_page(
    session_maker: async_sessionmaker[AsyncSession], project_id: UUID, page: FeedbackPage
) -> tuple[int, datetime | None]:
    """Create the page's new items in one transaction; how many, and the newest createdAt seen."""
    records = [feedback for feedback in map(page_feedback, page.items) if feedback is not None]
    newest = max((record.created_at for record in records), default=None)
    added = 0
    async with unit_of_work(session_maker) as session:
        project = await session.get(Project, project_id)
        if project is None:
            return 0, newest
        items = FeedbackItems(session, operator_scope(project.org_id, IMPORTER), project)
        for record in records:
            if not await claim(session, project_id, FeedbackSource.MINTLIFY, record.mintlify_id):
                continue
            await items.create(
                message=record.message,
                source=FeedbackSource.MINTLIFY,
                path=record.path,
                metadata=record.metadata,
                created_at=record.created_at,
            )
            added += 1
    return added, newest


async def _record(
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    integration_id: UUID,
    imported: int,
    *,
    newest: datetime | None = None,
    error: MintlifyError | None = None,
    unfinished: bool = False,
) -> None:
    """Save how the import went. The count is added in SQL, as another import may run at the same time.
    An unfinished import keeps the watermark and makes the next periodic import due at once."""
    now = utc_now()
    values: dict[str, object] = {"imported": MintlifyIntegration.imported + imported}
    if unfinished:
        values |= {"last_synced_at": now, "last_error": None, "next_sync_at": now}
    elif error is None:
        values |= {"last_synced_at": now, "last_error": None}
        if newest is not None:
            values["newest_created_at"] = newest
    else:
        values["last_error"] = error.words
        if error.retry_after is not None:
            later = now + timedelta(seconds=max(error.retry_after, settings.mintlify_sync_seconds))
            values["next_sync_at"] = later
        logger.warning("mintlify import %s failed: %s", integration_id, error.words)
    async with unit_of_work(session_maker) as session:
        await session.execute(
            update(MintlifyIntegration).where(MintlifyIntegration.id == integration_id).values(**values)
        )
