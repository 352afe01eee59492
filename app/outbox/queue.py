"""The outbox table's operations: queue work in the caller's transaction, claim due work, save an
attempt's result, queue a job again, delete jobs.

Claiming is safe with several dispatchers on one database: PostgreSQL skips rows another dispatcher is
claiming (FOR UPDATE SKIP LOCKED), SQLite runs one writer at a time, and in both the claim's UPDATE
checks again that the job is still free. A claim is a lease: a dispatcher that dies mid-attempt leaves
the job to be claimed again once the lease ends, and its late result, if any, is discarded.

Saving results and deleting jobs (an endpoint deleted, deliveries forgotten) lock the jobs they touch in
id order before changing any. Taken in the order the attempts ended (a save) and in the order a scan met
the rows (a deletion), the same jobs deadlocked on PostgreSQL and one side failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, Integer, Select, bindparam, delete, event, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from uuid_utils.compat import uuid7

from app.db.models import JobStatus, OutboxJob
from app.db.row_locks import lock_in_id_order
from app.outbox.handler import ClaimedJob, Outcome
from app.timestamps import utc_now

OUTBOX_SIGNAL = "hearken_outbox_signal"
"""Session.info key of the OutboxSignal that a commit of new work sets."""
_QUEUED = "hearken_outbox_queued"


def new_job(kind: str) -> OutboxJob:
    """A job due now, not yet added anywhere (a handler's records may carry new jobs)."""
    now = utc_now()
    return OutboxJob(
        id=uuid7(), kind=kind, status=JobStatus.PENDING.value, attempts=0, due_at=now,
        created_at=now, updated_at=now,
    )  # fmt: skip


def enqueue(session: AsyncSession, kind: str) -> OutboxJob:
    """Add a job due now to the session; it is done only if the caller's transaction commits."""
    job = new_job(kind)
    session.add(job)
    session.info[_QUEUED] = True
    return job


@event.listens_for(Session, "after_commit")
def _wake_the_dispatcher(session: Session) -> None:
    """New work committed in this process starts at once instead of at the dispatcher's next poll."""
    if session.info.pop(_QUEUED, False) and (signal := session.info.get(OUTBOX_SIGNAL)) is not None:
        signal.set()


@event.listens_for(Session, "after_rollback")
def _forget_queued(session: Session) -> None:
    session.info.pop(_QUEUED, None)


def _claimable() -> list[ColumnElement[bool]]:
    now = bindparam("now", type_=OutboxJob.due_at.type)
    return [
        OutboxJob.kind.in_(bindparam("kinds", expanding=True)),
        OutboxJob.status == JobStatus.PENDING.value,
        OutboxJob.due_at <= now,
        or_(OutboxJob.locked_until.is_(None), OutboxJob.locked_until <= now),
    ]


# A CTE, not `id IN (subquery)`: PostgreSQL may run such a subquery again for each row it joins, and
# with SKIP LOCKED each run finds other rows, so LIMIT would not bound the claim. Built once: an idle
# dispatcher polls, and building a statement each time would leave garbage cycles behind every poll.
_DUE = (
    select(OutboxJob.id)
    .where(*_claimable())
    .order_by(OutboxJob.due_at)
    .limit(bindparam("limit", type_=Integer))
    .with_for_update(skip_locked=True)
    .cte("due")
)
CLAIM = (
    update(OutboxJob)
    .where(OutboxJob.id == _DUE.c.id, *_claimable())
    .values(locked_until=bindparam("lease", type_=OutboxJob.locked_until.type))
    .returning(OutboxJob.id, OutboxJob.kind, OutboxJob.attempts)
    .execution_options(synchronize_session=False)
)


async def claim(
    session: AsyncSession, kinds: Sequence[str], limit: int, lease_seconds: float
) -> list[ClaimedJob]:
    """Lease up to `limit` due jobs of these kinds, oldest due first, in the caller's unit of work."""
    now = utc_now()
    lease = now + timedelta(seconds=lease_seconds)
    rows = await session.execute(CLAIM, {"now": now, "lease": lease, "limit": limit, "kinds": list(kinds)})
    return [ClaimedJob(id=id_, kind=kind, attempts=attempts, lease=lease) for id_, kind, attempts in rows]


async def finish(
    session: AsyncSession, results: Sequence[tuple[ClaimedJob, Outcome, Sequence[float]]]
) -> int:
    """Save attempts' results with the handlers' records in one transaction, and schedule the next
    attempt of each failure that has retries left (after the job's `retry_delays`). A job whose lease
    was lost meanwhile is left alone, its records dropped. Returns how many were saved."""
    now = utc_now()
    await lock_in_id_order(session, OutboxJob.id, [OutboxJob.id.in_([job.id for job, _, _ in results])])
    saved: set[UUID] = set()
    succeeded: dict[datetime, list[UUID]] = {}
    for job, outcome, retry_delays in results:
        if outcome.ok:  # saved together below: jobs claimed together share their lease
            succeeded.setdefault(job.lease, []).append(job.id)
            continue
        if outcome.later is not None:  # handed back unattempted
            later = {"locked_until": None, "due_at": now + timedelta(seconds=outcome.later)}
            saved.update(await _save(session, [job.id], job.lease, later))
            continue
        attempts = job.attempts + 1
        values: dict[str, Any] = {"attempts": attempts, "locked_until": None, "last_error": outcome.error}
        if not outcome.final and attempts <= len(retry_delays):
            values["due_at"] = now + timedelta(seconds=retry_delays[attempts - 1])
        else:
            values["status"] = JobStatus.FAILED.value
        saved.update(await _save(session, [job.id], job.lease, values))
    for lease, ids in succeeded.items():
        values = {
            "status": JobStatus.SUCCEEDED.value,
            "attempts": OutboxJob.attempts + 1,
            "locked_until": None,
            "last_error": None,
        }
        saved.update(await _save(session, ids, lease, values))
    session.add_all([record for job, outcome, _ in results if job.id in saved for record in outcome.records])
    await session.flush()
    return len(saved)


async def _save(
    session: AsyncSession, ids: list[UUID], lease: datetime, values: dict[str, Any]
) -> list[UUID]:
    """Update the jobs still held under this lease; returns their ids."""
    rows = await session.scalars(
        update(OutboxJob)
        .where(OutboxJob.id.in_(ids), OutboxJob.locked_until == lease)
        .values(**values)
        .returning(OutboxJob.id)
        .execution_options(synchronize_session=False)
    )
    return list(rows)


async def delete_jobs(session: AsyncSession, ids: Select[tuple[UUID]]) -> int:
    """Delete the jobs whose ids `ids` selects, and through their foreign keys what hangs on them (a
    webhook delivery and its attempts), locking them in id order first. Returns how many went."""
    await lock_in_id_order(session, OutboxJob.id, [OutboxJob.id.in_(ids)], deleting=True)
    result = await session.execute(
        delete(OutboxJob).where(OutboxJob.id.in_(ids)).execution_options(synchronize_session=False)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def retry_now(session: AsyncSession, job: OutboxJob) -> None:
    """Make a job due at once: a finished one gets one more attempt, a waiting one skips its wait.
    A job being attempted right now keeps its lease (no second attempt runs beside it)."""
    job.status = JobStatus.PENDING.value
    job.due_at = utc_now()
    session.info[_QUEUED] = True
