"""Group commit: a batch of submissions is stored in one transaction.

An intake gathers concurrent submissions into batches (a Coalescer) and answers each request only after
the commit that holds its row succeeded. If that fails, its request fails (503) and nothing is
acknowledged. GroupCommit is the part that is the same for every kind of row: a writer stores a batch
(and commits it) or raises; a batch that raises for any other reason than the database being away is
written again row by row, so that one bad row does not sink the others. A writer may also refuse single
rows (a 400 naming a field) by returning that refusal in the row's place: the others are stored.
Ratings (below) and survey responses (app/surveys/intake.py) are stored this way.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

import psycopg

from app.errors import Unavailable
from app.ingest.batches import RatingBatches
from app.ingest.rating_rows import NewRating, Row
from app.operations.metrics import BATCH_SIZE, COMMIT_SECONDS

logger = logging.getLogger("hearken.ingest")

DATABASE_DOWN = (psycopg.OperationalError, sqlite3.OperationalError, TimeoutError, OSError)
"""Failures of the database rather than of a row: retrying the rows one by one would only multiply the
wait, so the whole batch is answered 503 at once."""

T = TypeVar("T")
R = TypeVar("R")

BatchWriter = Callable[[Sequence[T]], Awaitable[Sequence[R | BaseException]]]
"""Stores and commits a batch: one result per row, in order (a row's own refusal in its place), or raises."""


def database_down(failure: BaseException) -> bool:
    """Whether the failure is the database's (its driver's error, as raised or wrapped by SQLAlchemy)."""
    return isinstance(failure, DATABASE_DOWN) or isinstance(getattr(failure, "orig", None), DATABASE_DOWN)


class GroupCommit(Generic[T, R]):
    def __init__(self, write: BatchWriter[T, R], noun: str) -> None:
        """`noun` names a row in the log ("rating")."""
        self._write_batch = write
        self._noun = noun

    async def write(self, batch: Sequence[T]) -> list[R | BaseException]:
        """Each row's result, its refusal, or Unavailable for a row that could not be committed."""
        return await self._stored(batch)

    async def _stored(self, batch: Sequence[T]) -> list[R | BaseException]:
        try:
            return list(await self._write_batch(batch))
        except Exception as failure:
            if database_down(failure):
                name = type(failure).__name__
                logger.error("a batch of %d %ss could not be stored: %s", len(batch), self._noun, name)
                return [self._unavailable()] * len(batch)
            if len(batch) == 1:
                logger.exception("a %s could not be stored; its request is answered 503", self._noun)
                return [self._unavailable()]
        # One bad row (say, its project was deleted a moment ago) must not sink the others:
        # retry each alone, so only the rows that cannot be stored fail.
        results: list[R | BaseException] = []
        for row in batch:
            results.extend(await self._stored([row]))
        return results

    def _unavailable(self) -> Unavailable:
        return Unavailable(f"the {self._noun} could not be stored; try again")


class RatingGroupCommit(GroupCommit[Row, NewRating]):
    def __init__(self, batches: RatingBatches) -> None:
        super().__init__(batches.write, "rating")
        self._batches = batches

    async def write(self, batch: Sequence[Row]) -> list[NewRating | BaseException]:
        started = time.perf_counter()
        results = await super().write(batch)
        COMMIT_SECONDS.observe(time.perf_counter() - started)
        BATCH_SIZE.observe(len(batch))
        return results

    async def close(self) -> None:
        await self._batches.close()
