"""Group commit for ratings: a batch of ratings is stored in one transaction.

The intake (intake.py) gathers concurrent submissions into batches and answers
each request only after the commit that holds its row succeeded. If that fails, its request fails (503)
and nothing is acknowledged.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Sequence

import psycopg

from app.errors import Unavailable
from app.ingest.batches import RatingBatches
from app.ingest.rating_rows import NewRating, Row
from app.operations.metrics import BATCH_SIZE, COMMIT_SECONDS

logger = logging.getLogger("hearken.ingest")

DATABASE_DOWN = (psycopg.OperationalError, sqlite3.OperationalError, TimeoutError, OSError)
"""Failures of the database rather than of a row: retrying the rows one by one would only multiply the
wait, so the whole batch is answered 503 at once."""


class RatingGroupCommit:
    def __init__(self, batches: RatingBatches) -> None:
        self._batches = batches

    async def write(self, batch: Sequence[Row]) -> list[NewRating | BaseException]:
        """Each row's stored rating, or Unavailable for a row that could not be committed."""
        started = time.perf_counter()
        results = await self._write(batch)
        COMMIT_SECONDS.observe(time.perf_counter() - started)
        BATCH_SIZE.observe(len(batch))
        return results

    async def _write(self, batch: Sequence[Row]) -> list[NewRating | BaseException]:
        try:
            return list(await self._batches.write(batch))
        except DATABASE_DOWN as failure:
            logger.error("a batch of %d ratings could not be stored: %s", len(batch), type(failure).__name__)
            return [Unavailable("the rating could not be stored; try again")] * len(batch)
        except Exception:
            if len(batch) == 1:
                logger.exception("a rating could not be stored; its request is answered 503")
                return [Unavailable("the rating could not be stored; try again")]
        # One bad row (say, its project was deleted a moment ago) must not sink the others:
        # retry each alone, so only the rows that cannot be stored fail.
        results: list[NewRating | BaseException] = []
        for row in batch:
            results.extend(await self._write([row]))
        return results

    async def close(self) -> None:
        await self._batches.close()
