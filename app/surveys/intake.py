"""The widget's survey responses, stored in batches: the same group commit as ratings.

Submissions that arrive together wait in one Coalescer; one task stores everything queued and then
answers every request: its refusal (400, 403, 404), or its stored response once the commit succeeded.

Most submissions are new responses to a survey without max_responses that this worker has read before
(response_writer.takes_unlocked): they are checked against the worker's copy of the survey and written
in one hop (unlocked_batches.py), the write confirming that every survey is still as copied. The rest
(amendments, surveys with max_responses, a survey not known yet or changed meanwhile, announced
completions, open text to embed) are stored in one transaction that locks the surveys first
(response_writer.store_responses), which also refreshes the worker's copies.

Either way a batch that fails is written again submission by submission (GroupCommit), so one that
cannot be stored fails alone (503) and the others are stored. A batch not committed within the request
deadline is answered 503 at once (a frozen database must not hang them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.errors import ApiError
from app.ingest import Coalescer, GroupCommit
from app.operations.deadline import REQUEST_DEADLINE_SECONDS
from app.surveys.response_writer import (
    ResponseToStore,
    Stored,
    forget_unlocked,
    judge_unlocked,
    store_responses,
    takes_unlocked,
)
from app.surveys.unlocked_batches import UnlockedBatches

MAX_BATCH = 500
WRITE_DEADLINE_SECONDS = REQUEST_DEADLINE_SECONDS
"""A batch not committed by then is answered 503, as a request past the deadline every other request has
(the submits are exempt from that one: a task per request would cost the hot path)."""

T = TypeVar("T")


class _SurveyChanged(Exception):
    """In a submission's place: a survey of its unlocked batch changed, so it goes the locking way."""


_CHANGED = _SurveyChanged()


class SurveyIntake:
    def __init__(
        self,
        session_maker: async_sessionmaker[AsyncSession],
        unlocked: UnlockedBatches | None = None,
        max_batch: int = MAX_BATCH,
    ) -> None:
        """Without `unlocked`, every batch takes the locking path."""
        self._session_maker = session_maker
        self._unlocked = unlocked
        self._abandoned: set[asyncio.Future[Any]] = set()
        self._locking: GroupCommit[ResponseToStore, Stored] = GroupCommit(
            self._write_locking, "survey response"
        )
        self._without_locks: GroupCommit[ResponseToStore, Stored] = GroupCommit(
            self._write_unlocked, "survey response"
        )
        self._submissions: Coalescer[ResponseToStore, Stored] = Coalescer(
            self._write, max_batch=max_batch, name="survey-intake"
        )

    async def submit(self, item: ResponseToStore) -> Stored:
        """The stored response once committed; raises its refusal, or Unavailable."""
        return await self._submissions.submit(item)

    async def close(self) -> None:
        """Answer what is queued, then stop."""
        await self._submissions.close()
        if self._unlocked is not None:
            await self._unlocked.close()

    async def _write(self, batch: Sequence[ResponseToStore]) -> list[Stored | BaseException]:
        results: list[Stored | BaseException | None] = [None] * len(batch)
        if self._unlocked is not None:
            quick = [at for at, item in enumerate(batch) if takes_unlocked(item)]
            if quick:
                written = await self._without_locks.write([batch[at] for at in quick])
                for at, result in zip(quick, written, strict=True):
                    if result is not _CHANGED:
                        results[at] = result
        rest = [at for at, result in enumerate(results) if result is None]
        if rest:
            for at, result in zip(rest, await self._locking.write([batch[at] for at in rest]), strict=True):
                results[at] = result
        return results  # type: ignore[return-value]

    async def _write_unlocked(self, batch: Sequence[ResponseToStore]) -> list[Stored | BaseException]:
        assert self._unlocked is not None
        judged = judge_unlocked(batch)
        if judged is not None and await self._in_time(self._unlocked.write(judged)):
            return judged.results  # type: ignore[return-value]
        if judged is not None:
            forget_unlocked(judged.versions)
        return [_CHANGED] * len(batch)

    async def _write_locking(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        return await self._in_time(self._store(batch))

    async def _in_time(self, write: Coroutine[Any, Any, T]) -> T:
        writing = asyncio.ensure_future(write)
        done, _ = await asyncio.wait((writing,), timeout=WRITE_DEADLINE_SECONDS)
        if not done:
            # Not awaited: cancelling a query on a frozen database takes the driver seconds more. The
            # task unwinds on its own; the batch's requests are answered 503 now.
            writing.cancel()
            self._abandoned.add(writing)
            writing.add_done_callback(self._abandoned.discard)
            raise TimeoutError("the survey responses were not committed in time")
        return writing.result()

    async def _store(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        async with unit_of_work(self._session_maker) as session:
            return await store_responses(session, batch)
