"""Jobs every server process runs beside its requests at an interval, all listed here (`periodic_jobs`):
retention, the ratings' monthly partitions, digests, imports, stale OAuth requests and clients, the
insights' themes, surveys past their end or their number of responses, the alert checks, and the process's
own work: sweeping its session stores, checking its read replicas' lag.

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
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from litestar import Litestar

from admin_ui.session_purge import PURGE_EVERY_SECONDS, purge_expired_entries
from app.alerts.checks import LOOK_EVERY_SECONDS as ALERTS_EVERY_SECONDS
from app.alerts.checks import run_due_checks
from app.config import Settings
from app.conversations.unread_mail import LOOK_EVERY_SECONDS as UNREAD_EVERY_SECONDS
from app.conversations.unread_mail import mail_unread
from app.db.rating_partitions import create_ahead
from app.db.read_routing import check_replicas
from app.db.replicas import CHECK_SECONDS
from app.db.transactions import unit_of_work
from app.insights.themes import LOOP_SECONDS, look_for_themes, wake_on_refresh
from app.integrations.mintlify_schedule import LOOK_EVERY_SECONDS as IMPORTS_EVERY_SECONDS
from app.integrations.mintlify_schedule import run_due_imports
from app.notifications.digest import LOOK_EVERY_SECONDS as DIGESTS_EVERY_SECONDS
from app.notifications.digest import send_digests
from app.services.retention import forget_ended_secrets, prune_old_deliveries, run_due_retention
from app.surveys.completion import COMPLETION_EVERY_SECONDS, complete_due_surveys
from app.timestamps import utc_now
from tenants.connected_apps import purge_stale

Job = Callable[[Litestar], Awaitable[None]]
Lifespan = Callable[[Litestar], AbstractAsyncContextManager[None]]


@dataclass(frozen=True, slots=True)
class PeriodicJob:
    """A periodic job's lifespan hook, known by its name (docs/architecture.md lists them by name)."""

    name: str
    lifespan: Lifespan

    def __call__(self, app: Litestar) -> AbstractAsyncContextManager[None]:
        return self.lifespan(app)


def periodic(
    name: str,
    every_seconds: Callable[[Litestar], float],
    job: Job,
    *,
    before_serving: bool = False,
    wake: Callable[[asyncio.Event | None], None] | None = None,
) -> PeriodicJob:
    """A lifespan hook that runs `job(app)` at start, then every `every_seconds(app)` (give or take a
    tenth) for as long as the app serves. With `before_serving` the app serves only once the first run
    is done (what the first request needs); `wake` is handed an event that starts a run at once (and
    None when the loop stops)."""
    logger = logging.getLogger(f"hearken.{name}")

    async def run(app: Litestar, pause: float) -> None:
        try:
            await job(app)
        except Exception as error:  # a database outage or a bug must not end the loop, nor the worker
            if asyncio.current_task().cancelling():  # type: ignore[union-attr]
                # Stopped midway and its cleanup failed: the app is stopping, so is the loop.
                raise asyncio.CancelledError from error
            logger.exception("%s failed; trying again in about %s s", name, pause)

    async def keep_running(app: Litestar, woken: asyncio.Event, ran: bool) -> None:
        pause = every_seconds(app)
        while True:
            if not ran:
                await run(app, pause)
            ran = False
            woken.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), pause * random.uniform(0.9, 1.1))

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if before_serving:
            await run(app, every_seconds(app))
        woken = asyncio.Event()
        if wake is not None:
            wake(woken)
        task = asyncio.create_task(keep_running(app, woken, before_serving), name=name)
        try:
            yield
        finally:
            if wake is not None:
                wake(None)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return PeriodicJob(name, lifespan)


def periodic_jobs(settings: Settings) -> list[PeriodicJob]:
    """The lifespan hooks of every periodic job of a server process. The session sweep and the replicas'
    lag checks stay on with HEARKEN_PERIODIC_JOBS=off: the stores and the routing are the process's own."""
    own = [periodic("sessions", lambda app: PURGE_EVERY_SECONDS, purge_expired_entries)]
    if settings.database_replica_urls:
        own.append(periodic("replicas", lambda app: CHECK_SECONDS, check_replicas, before_serving=True))
    if not settings.periodic_jobs:
        return own
    return [
        *own,
        periodic("imports", _imports_every, _import_due),
        periodic("retention", lambda app: RETENTION_EVERY_SECONDS, _apply_due_retention),
        periodic("partitions", lambda app: PARTITIONS_EVERY_SECONDS, create_partitions_ahead),
        periodic("notifications", lambda app: DIGESTS_EVERY_SECONDS, _send_yesterdays_digests),
        periodic("oauth", lambda app: OAUTH_PURGE_EVERY_SECONDS, purge_stale_oauth),
        periodic("insights", lambda app: LOOP_SECONDS, look_for_themes, wake=wake_on_refresh),
        periodic("surveys", lambda app: COMPLETION_EVERY_SECONDS, _complete_due_surveys),
        periodic("alerts", lambda app: ALERTS_EVERY_SECONDS, check_due_alerts),
        periodic("conversations", lambda app: UNREAD_EVERY_SECONDS, mail_unread_messages),
    ]


RETENTION_EVERY_SECONDS = 300
"""Every process looks for projects whose retention is due this often; the lease on each project
(app.services.retention) lets one of them run it. The same look deletes webhook deliveries finished more
than 30 days ago (deleting twice deletes nothing) and webhook secrets whose rotation overlap has ended."""

_retention_log = logging.getLogger("hearken.retention")


async def _apply_due_retention(app: Litestar) -> None:
    await forget_ended_secrets(app.state.session_maker)
    pruned = await prune_old_deliveries(app.state.session_maker)
    if pruned:
        _retention_log.info("deleted %s webhook deliveries finished more than 30 days ago", pruned)
    for removed in await run_due_retention(app.state.session_maker):
        if removed.feedback or removed.ratings or removed.contact_messages:
            _retention_log.info(
                "retention of project %s deleted %s feedback items, %s ratings, %s contact messages, "
                "%s survey responses",
                removed.project_id,
                removed.feedback,
                removed.ratings,
                removed.contact_messages,
                removed.survey_responses,
            )


PARTITIONS_EVERY_SECONDS = 3600
"""How often a process looks at the ratings' monthly partitions on PostgreSQL (app/db/rating_partitions.py):
the current month and the coming ones created (retention drops the months past every project's
retention, before it deletes the rest row by row). An advisory lock lets one
process across every node do it; the others find the lock taken and do nothing."""

_partitions_log = logging.getLogger("hearken.partitions")


async def create_partitions_ahead(app: Litestar) -> None:
    created = await create_ahead(app.state.database_engine, utc_now())
    if created:
        _partitions_log.info("created the ratings partitions %s", ", ".join(created))


OAUTH_PURGE_EVERY_SECONDS = 3600
"""How often expired OAuth authorization requests and codes, and clients registered without ever being
connected (tenants/connected_apps.py says after how long), are deleted; deleting twice deletes nothing."""

_oauth_log = logging.getLogger("hearken.oauth")


async def purge_stale_oauth(app: Litestar) -> None:
    async with unit_of_work(app.state.session_maker) as session:
        purged = await purge_stale(session)
    if purged.authorizations or purged.clients:
        _oauth_log.info(
            "deleted %s expired OAuth authorization requests and %s clients never connected",
            purged.authorizations,
            purged.clients,
        )


async def check_due_alerts(app: Litestar) -> None:
    """Each project's alert checks, about once an hour, by whichever process claims the project first
    (app.alerts.checks)."""
    await run_due_checks(app.state.session_maker, utc_now())


async def mail_unread_messages(app: Litestar) -> None:
    """One mail per conversation whose messages a side left unread for 5 minutes, at most one an hour
    (app.conversations.unread_mail); a conditional update claims each mail for one process."""
    await mail_unread(app.state.session_maker, app.state.settings, utc_now())


async def _import_due(app: Litestar) -> None:
    await run_due_imports(app.state.session_maker, app.state.settings)


def _imports_every(app: Litestar) -> float:
    return min(IMPORTS_EVERY_SECONDS, app.state.settings.mintlify_sync_seconds)


async def _send_yesterdays_digests(app: Litestar) -> None:
    yesterday = datetime.now(UTC).date() - timedelta(days=1)
    await send_digests(app.state.session_maker, app.state.settings, yesterday)


_surveys_log = logging.getLogger("hearken.surveys")


async def _complete_due_surveys(app: Litestar) -> None:
    completed = await complete_due_surveys(app.state.session_maker)
    if completed:
        _surveys_log.info("completed %s surveys past their end or their number of responses", completed)
