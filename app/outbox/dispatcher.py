"""The dispatcher: a task in each server process that claims due outbox jobs and runs them, a bounded
number at a time, beside the requests (which never wait for it). Each kind of job has its own share of
slots (its handler's `share`): webhook deliveries waiting on slow receivers never hold a slot that mail
could use.

It wakes when its own process commits new work, when a running job ends while every slot of its kind
was busy, and otherwise every `poll_seconds` (for work queued by other processes and for retries coming
due).
Work is claimed, and results are saved, in groups: whatever came in within a short moment goes into
one transaction. Stopping gives running attempts a grace period, saves what ended, and cancels the
rest; a cancelled job's lease ends and another dispatcher (or this one, restarted) takes it over.
Not a `periodic()` job (app/periodic.py): it claims as soon as a slot frees or work is committed, and
stopping must let running attempts end and their results be saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Sequence
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.operations.metrics import OUTBOX_ATTEMPTS
from app.outbox.handler import ClaimedJob, JobHandler, Outcome
from app.outbox.queue import claim, finish

logger = logging.getLogger("hearken.outbox")

Result = tuple[ClaimedJob, Outcome, Sequence[float]]
GATHER_SECONDS = 0.05
"""How long the dispatcher lets work gather after a wake-up before claiming it, and its results before
saving them: a claim, a lookup and a save cost about as much for ten jobs as for one."""


class Dispatcher:
    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        handlers: Sequence[JobHandler],
        *,
        wake: asyncio.Event,
        poll_seconds: float = 1.0,
        lease_seconds: float = 60.0,
    ) -> None:
        self._session_maker = session_maker
        self._handlers = {handler.kind: handler for handler in handlers}
        self._wake = wake
        self._poll_seconds = poll_seconds
        self._lease_seconds = lease_seconds
        self._running: set[asyncio.Task[None]] = set()
        self._busy = dict.fromkeys(self._handlers, 0)
        """Jobs of each kind claimed and not yet attempted to the end."""
        self._results: asyncio.Queue[Result] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._claim_loop(), name="outbox-claims"),
            asyncio.create_task(self._save_loop(), name="outbox-results"),
        ]

    async def stop(self, grace_seconds: float = 5.0) -> None:
        """Stop claiming, give running attempts `grace_seconds`, save what ended, cancel the rest."""
        claims, saves = self._tasks or (None, None)
        if claims is not None:
            claims.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await claims
        if self._running:
            _, late = await asyncio.wait(set(self._running), timeout=grace_seconds)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if saves is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._results.join(), grace_seconds)
            saves.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await saves

    async def _claim_loop(self) -> None:
        while True:
            free = {kind: handler.share - self._busy[kind] for kind, handler in self._handlers.items()}
            wanted = {kind: count for kind, count in free.items() if count > 0}
            claimed = await self._claim(wanted) if wanted else {}
            for kind, group in claimed.items():
                self._busy[kind] += len(group)
                task = asyncio.create_task(self._attempt(group), name=f"outbox-{kind}")
                self._running.add(task)
                task.add_done_callback(self._running.discard)
            if not any(len(claimed.get(kind, ())) == count for kind, count in wanted.items()):
                await self._sleep()  # every kind with a free slot got less than it could take

    async def _sleep(self) -> None:
        """Until woken or the poll interval is over; then a moment more when woken, for work to gather.
        A timer rather than wait_for: an idle worker's polls raise no exceptions (no garbage cycles)."""
        timer = asyncio.get_running_loop().call_later(self._poll_seconds, self._wake.set)
        try:
            await self._wake.wait()
        finally:
            woken = not timer.cancelled() and timer.when() > asyncio.get_running_loop().time()
            timer.cancel()
        if woken:
            await asyncio.sleep(GATHER_SECONDS)
        self._wake.clear()

    async def _claim(self, wanted: dict[str, int]) -> dict[str, list[ClaimedJob]]:
        """Up to `wanted[kind]` due jobs of each kind, in one transaction."""
        claimed = {}
        try:
            async with unit_of_work(self._session_maker) as session:
                for kind, limit in wanted.items():
                    if jobs := await claim(session, [kind], limit, self._lease_seconds):
                        claimed[kind] = jobs
        except Exception:
            logger.exception("outbox: claiming due jobs failed; trying again at the next poll")
            return {}
        return claimed

    async def _attempt(self, jobs: list[ClaimedJob]) -> None:
        """One attempt at each job. A handler that crashes holds no one up: the jobs it gave no outcome
        for are attempted again at once one by one, and a job that crashes it alone has a failed attempt
        (retried after its delays like any other failure)."""
        handler = self._handlers[jobs[0].kind]
        left = {job.id: job for job in jobs}
        try:
            try:
                await self._run(handler, jobs, left)
            except Exception as exc:
                if len(jobs) == 1:
                    self._crashed(handler, jobs[0], exc)
                    left.clear()
                    return
                _log_crash(jobs[0].kind, len(left), exc, "each is attempted again alone")
                for job in list(left.values()):
                    try:
                        await self._run(handler, [job], left)
                    except Exception as alone:
                        self._crashed(handler, job, alone)
                        left.pop(job.id, None)
        finally:
            self._free_slots(handler.kind, len(left))

    async def _run(self, handler: JobHandler, jobs: list[ClaimedJob], left: dict[UUID, ClaimedJob]) -> None:
        async for job, outcome in handler.run(jobs):
            if left.pop(job.id, None) is not None:
                self._record(handler, job, outcome)

    def _crashed(self, handler: JobHandler, job: ClaimedJob, exc: Exception) -> None:
        _log_crash(job.kind, 1, exc, f"a failed attempt of job {job.id}")
        self._record(
            handler, job, Outcome(ok=False, error=f"the {job.kind} handler failed ({type(exc).__name__})")
        )

    def _record(self, handler: JobHandler, job: ClaimedJob, outcome: Outcome) -> None:
        if outcome.later is None:  # a job handed back was not attempted
            OUTBOX_ATTEMPTS.labels(job.kind, _result(job, outcome, handler.retry_delays)).inc()
        self._results.put_nowait((job, outcome, handler.retry_delays))
        self._free_slots(job.kind, 1)

    def _free_slots(self, kind: str, count: int) -> None:
        if count and self._busy[kind] == self._handlers[kind].share:
            self._wake.set()  # a slot opens while all of its kind's were busy: there may be more waiting
        self._busy[kind] -= count

    async def _save_loop(self) -> None:
        while True:
            group = [await self._results.get()]
            await asyncio.sleep(GATHER_SECONDS)
            while not self._results.empty():
                group.append(self._results.get_nowait())
            try:
                async with unit_of_work(self._session_maker) as session:
                    saved = await finish(session, group)
                if saved < len(group):
                    logger.warning(
                        "outbox: %d results came after their lease ended and were dropped", len(group) - saved
                    )
            except Exception:
                logger.exception("outbox: saving results failed; those jobs are retried after their lease")
            finally:
                for _ in group:
                    self._results.task_done()


def _log_crash(kind: str, count: int, exc: Exception, then: str) -> None:
    """Where it failed, without the exception's words: they may quote what a job carries."""
    logger.error(
        "outbox: the %s handler failed (%s) with %d jobs; %s\n%s",
        kind,
        type(exc).__name__,
        count,
        then,
        "".join(traceback.format_tb(exc.__traceback__)),
    )


def _result(job: ClaimedJob, outcome: Outcome, retry_delays: Sequence[float]) -> str:
    """The attempt's result as the metrics count it: delivered, retry (tried again later) or failed."""
    if outcome.ok:
        return "delivered"
    return "retry" if not outcome.final and job.attempts + 1 <= len(retry_delays) else "failed"
