"""The widget's survey responses, stored in batches: the same group commit as ratings.

Submissions that arrive together wait in one Coalescer; one task stores everything queued in one
transaction (response_writer.py: the surveys locked once, each submission checked in order, counters
summed over the batch) and commits it, then answers every request: its refusal (400, 403, 404), or its
stored response once the commit succeeded. A batch that fails is written again submission by submission
(GroupCommit), so one that cannot be stored fails alone (503) and the others are stored.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.errors import ApiError
from app.ingest import Coalescer, GroupCommit
from app.surveys.response_writer import ResponseToStore, Stored, store_responses

MAX_BATCH = 500


class SurveyIntake:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], max_batch: int = MAX_BATCH) -> None:
        self._session_maker = session_maker
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
        async with unit_of_work(self._session_maker) as session:
            return await store_responses(session, batch)
