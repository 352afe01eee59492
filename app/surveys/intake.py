"""The widget's survey responses, stored in batches: the same group commit as ratings.

Submissions that arrive together wait in one Coalescer; one task stores everything queued in one
transaction (response_writer.py: the surveys locked once, each submission checked in order, counters
summed over the batch) and commits it, then answers every request: its refusal (400, 403, 404), or its
stored response once the commit succeeded. A batch that fails is written again submission by submission
(GroupCommit), so one that cannot be stored fails alone (503) and the others are stored. A batch not
committed within the request deadline is answered 503 at once (a frozen database must not hang them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.errors import ApiError
from app.ingest import Coalescer, GroupCommit
from app.operations.deadline import REQUEST_DEADLINE_SECONDS
from app.surveys.response_writer import ResponseToStore, Stored, store_responses

MAX_BATCH = 500
WRITE_DEADLINE_SECONDS = REQUEST_DEADLINE_SECONDS
"""A batch not committed by then is answered 503, as a request past the deadline every other request has
(the submits are exempt from that one: a task per request would cost the hot path)."""


class SurveyIntake:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], max_batch: int = MAX_BATCH) -> None:
        self._session_maker = session_maker
        self._abandoned: set[asyncio.Future[list[Stored | ApiError]]] = set()
        group_commit: GroupCommit[ResponseToStore, Stored] = GroupCommit(self._write, "survey response")
        self._submissions: Coalescer[ResponseToStore, Stored] = Coalescer(
            group_commit.write, max_batch=max_batch, name="survey-intake"
        )

    async def submit(self, item: ResponseToStore) -> Stored:
        """The stored response once committed; raises its refusal, or Unavailable."""
        return await self._submissions.submit(item)

    async def close(self) -> None:
        """Answer what is queued, then stop."""
        await self._submissions.close()

    async def _write(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        writing = asyncio.ensure_future(self._store(batch))
        done, _ = await asyncio.wait((writing,), timeout=WRITE_DEADLINE_SECONDS)
        if not done:
            # Not awaited: cancelling a query on a frozen database takes the driver seconds more. The task
            # unwinds on its own; the batch's requests are answered 503 now.
            writing.cancel()
            self._abandoned.add(writing)
            writing.add_done_callback(self._abandoned.discard)
            raise TimeoutError("the survey responses were not committed in time")
        return writing.result()

    async def _store(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        async with unit_of_work(self._session_maker) as session:
            return await store_responses(session, batch)
