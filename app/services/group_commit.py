"""Group commit for ratings: concurrent submissions share one transaction.

Each request's row waits in a Coalescer; one task writes everything queued, with its counters, in one
transaction and commits, then answers every waiting request. A request is answered only after the
commit that holds its row succeeded; if that fails, its request fails (503) and nothing is acknowledged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from uuid import UUID

from app.coalescer import Coalescer
from app.errors import Unavailable
from app.services.rating_batches import RatingBatches, Row
from app.services.rating_input import RatingInput
from app.services.rating_writer import NewRating

logger = logging.getLogger("hearken.ingest")


class RatingGroupCommit:
    def __init__(self, batches: RatingBatches, max_batch: int = 1000) -> None:
        self._batches = batches
        self._rows: Coalescer[Row, NewRating] = Coalescer(
            self._write, max_batch=max_batch, name="group-commit"
        )

    async def submit(self, project_id: UUID, item: RatingInput) -> NewRating:
        """Store one rating; returns once it is committed, raises Unavailable if it could not be."""
        return await self._rows.submit((project_id, item))

    async def close(self) -> None:
        """Write what is queued, then stop the writer."""
        await self._rows.close()
        await self._batches.close()

    async def _write(self, batch: Sequence[Row]) -> Sequence[NewRating | BaseException]:
        try:
            return await self._batches.write(batch)
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
