"""Group commit for ratings: a batch of ratings is stored in one transaction.

The intake (intake.py) gathers concurrent submissions into batches and answers
each request only after the commit that holds its row succeeded. If that fails, its request fails (503)
and nothing is acknowledged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from app.errors import Unavailable
from app.ingest.batches import RatingBatches
from app.ingest.rating_rows import NewRating, Row

logger = logging.getLogger("hearken.ingest")


class RatingGroupCommit:
    def __init__(self, batches: RatingBatches) -> None:
        self._batches = batches

    async def write(self, batch: Sequence[Row]) -> list[NewRating | BaseException]:
        """Each row's stored rating, or Unavailable for a row that could not be committed."""
        try:
            return list(await self._batches.write(batch))
        except Exception:
            if len(batch) == 1:
                logger.exception("a rating could not be stored; its request is answered 503")
                return [Unavailable("the rating could not be stored; try again")]
        # One bad row (say, its project was deleted a moment ago) must not sink the others:
        # retry each alone, so only the rows that cannot be stored fail.
        results: list[NewRating | BaseException] = []
        for row in batch:
            results.extend(await self.write([row]))
        return results

    async def close(self) -> None:
        await self._batches.close()
