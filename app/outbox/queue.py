"""The outbox table's operations: queue work in the caller's transaction, claim due work, save an
attempt's result, queue a job again.

Claiming is safe with several dispatchers on one database: PostgreSQL skips rows another dispatcher is
claiming (FOR UPDATE SKIP LOCKED), SQLite runs one writer at a time, and in both the claim's UPDATE
checks again that the job is still free. A claim is a lease: a dispatcher that dies mid-attempt leaves
the job to be claimed again once the lease ends, and its late result, if any, is discarded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, and_, event, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from uuid_utils.compat import uuid7

from app.db.models import JobStatus, OutboxJob
from app.outbox.handler import ClaimedJob, Outcome
from app.timestamps import utc_now

OUTBOX_SIGNAL = "hearken_outbox_signal"
"""Session.info key of the OutboxSignal that a commit of new work sets."""
_QUEUED = "hearken_outbox_queued"


def enqueue(session: AsyncSession, kind: str, *, job_id: UUID | None = None) -> OutboxJob:
    """Add a job due now to the session; it is done only if the caller's transaction commits."""
    now = utc_now()
    job = OutboxJob(
        id=job_id or uuid7(), kind=kind, status=JobStatus.PENDING.value, attempts=0, due_at=now,
        created_at=now, updated_at=now,
    )  # fmt: skip
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


def _claimable(kinds: Iterable[str], now: datetime) -> list[ColumnElement[bool]]:
    return [
        OutboxJob.kind.in_(list(kinds)),
        OutboxJob.status == JobStatus.PENDING.value,
        OutboxJob.due_at <= now,
        or_(OutboxJob.locked_until.is_(None), OutboxJob.locked_until <= now),
    ]


async def claim(
    session: AsyncSession, kinds: Sequence[str], limit: int, lease_seconds: float
) -> list[ClaimedJob]:
    """Lease up to `limit` due jobs of these kinds, oldest due first, and commit the lease."""
    now = utc_now()
    ids = list(
        await session.scalars(
            select(OutboxJob.id)
            .where(*_claimable(kinds, now))
            .order_by(OutboxJob.due_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
    )
    if not ids:
        await session.rollback()
        return []
    lease = now + timedelta(seconds=lease_seconds)
    rows = await session.execute(
        update(OutboxJob)
        .where(OutboxJob.id.in_(ids), *_claimable(kinds, now))
        .values(locked_until=lease)
        .returning(OutboxJob.id, OutboxJob.kind, OutboxJob.attempts)
    )
    claimed = [ClaimedJob(id=id_, kind=kind, attempts=attempts, lease=lease) for id_, kind, attempts in rows]
    await session.commit()
    return claimed


async def finish(
    session: AsyncSession, job: ClaimedJob, outcome: Outcome, retry_delays: Sequence[float]
) -> bool:
    """Save one attempt's result with the handler's records, and schedule the next attempt if a
    failure has retries left. False when the lease was lost meanwhile: nothing is saved then."""
    now = utc_now()
    attempts = job.attempts + 1
    values: dict[str, Any] = {"attempts": attempts, "locked_until": None, "last_error": outcome.error}
    if outcome.ok:
        values["status"] = JobStatus.SUCCEEDED.value
    elif not outcome.final and attempts <= len(retry_delays):
        values["due_at"] = now + timedelta(seconds=retry_delays[attempts - 1])
    else:
        values["status"] = JobStatus.FAILED.value
    saved = await session.execute(
        update(OutboxJob)
        .where(and_(OutboxJob.id == job.id, OutboxJob.locked_until == job.lease))
        .values(**values)
    )
    if saved.rowcount != 1:  # type: ignore[attr-defined]
        await session.rollback()
        return False
    session.add_all(outcome.records)
    await session.commit()
    return True


def retry_now(session: AsyncSession, job: OutboxJob) -> None:
    """Make a job due at once: a finished one gets one more attempt, a waiting one skips its wait.
    A job being attempted right now keeps its lease (no second attempt runs beside it)."""
    job.status = JobStatus.PENDING.value
    job.due_at = utc_now()
    session.info[_QUEUED] = True
