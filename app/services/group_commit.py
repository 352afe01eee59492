"""Group commit for ratings: concurrent submissions share one transaction.

Each request enqueues its row and waits; one writer task per process takes everything queued, writes it
with its counters in one transaction and commits, then answers every waiting request. Under light load a
batch holds one row and adds no delay; under heavy load a commit serves hundreds. A request is answered
only after the commit that holds its row succeeded; if the batch fails, every request in it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Unavailable
from app.services.rating_input import RatingInput
from app.services.rating_writer import NewRating, add_ratings

logger = logging.getLogger("hearken.ingest")

MAX_BATCH = 1000


@dataclass(slots=True)
class _Pending:
    project_id: UUID
    item: RatingInput
    done: asyncio.Future[NewRating] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class RatingGroupCommit:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession], max_batch: int = MAX_BATCH) -> None:
        self._session_maker = session_maker
        self._max_batch = max_batch
        self._queue: list[_Pending] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, project_id: UUID, item: RatingInput) -> NewRating:
        """Store one rating; returns once it is committed, raises Unavailable if its batch failed."""
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_forever(), name="rating-group-commit")
        pending = _Pending(project_id, item)
        self._queue.append(pending)
        self._wake.set()
        return await pending.done

    async def close(self) -> None:
        """Write what is queued, then stop the writer."""
        if self._writer is None:
            return
        while self._queue:
            await self._write(self._take())
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        self._writer = None

    async def _write_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                await self._write(self._take())

    def _take(self) -> list[_Pending]:
        batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
        return batch

    async def _write(self, batch: Sequence[_Pending]) -> None:
        try:
            ratings = await self._commit(batch)
        except Exception:
            if len(batch) > 1:
                # One bad row (say, its project was deleted a moment ago) must not sink the others:
                # retry each alone, so only the rows that cannot be stored fail.
                for pending in batch:
                    await self._write([pending])
                return
            logger.exception("a rating could not be stored; its request is answered 503")
            _fail(batch[0])
            return
        for pending, rating in zip(batch, ratings, strict=True):
            if not pending.done.done():
                pending.done.set_result(rating)

    async def _commit(self, batch: Sequence[_Pending]) -> list[NewRating]:
        async with self._session_maker() as session:
            ratings = await add_ratings(session, [(p.project_id, p.item) for p in batch])
            await session.commit()
        return ratings


def _fail(pending: _Pending) -> None:
    if not pending.done.done():
        pending.done.set_exception(Unavailable("the rating could not be stored; try again"))
