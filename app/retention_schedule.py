"""The periodic retention job beside the server: every process looks for projects whose retention is
due every few minutes; the lease on each project (app.services.retention) lets one of them run it."""

from __future__ import annotations

import logging

from litestar import Litestar

from app.periodic import periodic
from app.services.retention import run_due_retention

logger = logging.getLogger("hearken.retention")

LOOK_EVERY_SECONDS = 300


async def _apply_due(app: Litestar) -> None:
    for removed in await run_due_retention(app.state.session_maker):
        if removed.feedback or removed.ratings or removed.contact_messages:
            logger.info(
                "retention of project %s deleted %s feedback items, %s ratings, %s contact messages",
                removed.project_id,
                removed.feedback,
                removed.ratings,
                removed.contact_messages,
            )


periodic_retention = periodic("retention", lambda app: LOOK_EVERY_SECONDS, _apply_due)
"""Runs the retention job beside the server for as long as it serves."""
