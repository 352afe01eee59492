"""The dispatcher: a task in each server process that claims due outbox jobs and runs them, a bounded
number at a time, beside the requests (which never wait for it).

It wakes when its own process commits new work, when a running job ends while every slot was busy,
and otherwise every `poll_seconds` (for work queued by other processes and for retries coming due).
Stopping cancels what is still running after a grace period; a cancelled job's lease ends and
another dispatcher (or this one, restarted) takes it over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.outbox.handler import ClaimedJob, JobHandler, Outcome
from app.outbox.queue import claim, finish

logger = logging.getLogger("hearken.outbox")


class Dispatcher:
    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        handlers: Sequence[JobHandler],
        *,
        wake: asyncio.Event,
        poll_seconds: float = 1.0,
        capacity: int = 16,
        lease_seconds: float = 60.0,
    ) -> None:
        self._session_maker = session_maker
        self._handlers = {handler.kind: handler for handler in handlers}
        self._wake = wake
        self._poll_seconds = poll_seconds
        self._capacity = capacity
        self._lease_seconds = lease_seconds
        self._running: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop_task = asyncio.create_task(self._loop(), name="outbox-dispatcher")

    async def stop(self, grace_seconds: float = 5.0) -> None:
        """Stop claiming, give running jobs `grace_seconds` to finish, cancel the rest."""
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        if self._running:
            _, late = await asyncio.wait(set(self._running), timeout=grace_seconds)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def _loop(self) -> None:
        while True:
            free = self._capacity - len(self._running)
            jobs = await self._claim(free) if free > 0 else []
            for job in jobs:
                task = asyncio.create_task(self._attempt(job), name=f"outbox-{job.kind}-{job.id}")
                self._running.add(task)
                task.add_done_callback(self._done)
            if len(jobs) < free or free <= 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._poll_seconds)
                self._wake.clear()

    def _done(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        if len(self._running) == self._capacity - 1:
            self._wake.set()  # a slot opened while all were busy: there may be more waiting

    async def _claim(self, limit: int) -> list[ClaimedJob]:
        try:
            async with self._session_maker() as session:
                return await claim(session, list(self._handlers), limit, self._lease_seconds)
        except Exception:
            logger.exception("outbox: claiming due jobs failed; trying again at the next poll")
            return []

    async def _attempt(self, job: ClaimedJob) -> None:
        handler = self._handlers[job.kind]
        try:
            outcome = await handler.run(job)
        except Exception as exc:
            logger.exception("outbox: a %s job failed unexpectedly", job.kind)
            outcome = Outcome(ok=False, error=f"internal error ({type(exc).__name__})")
        try:
            async with self._session_maker() as session:
                saved = await finish(session, job, outcome, handler.retry_delays)
        except Exception:
            logger.exception(
                "outbox: saving a %s job's result failed; it is retried after its lease", job.kind
            )
            return
        if not saved:
            logger.warning(
                "outbox: a %s job's lease ended before its attempt did; the result is dropped", job.kind
            )
