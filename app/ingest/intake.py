"""Public ratings, admitted and stored in batches: the widgets' hottest path.

Submissions that arrive together wait in one Coalescer. One task takes everything queued, has the gate
judge the whole batch (one budget call), stores the admitted ratings in one transaction, then answers
every request: a refusal (404, 403, 429) or the stored rating once its commit succeeded. Each request
waits once, and the budget call and the commit share the same, larger batches.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from app.ingest.coalescer import Coalescer
from app.ingest.gate import PublicGate, Visit
from app.ingest.group_commit import RatingGroupCommit
from app.ingest.rating_input import RatingInput
from app.ingest.rating_rows import NewRating, Row
from app.ingest.verified_users import user_verdict

Submission = tuple[Visit, RatingInput, str | None]
"""A request, its rating and its user_signature."""


class RatingIntake:
    def __init__(self, gate: PublicGate, group_commit: RatingGroupCommit, max_batch: int = 1000) -> None:
        self._gate = gate
        self._group_commit = group_commit
        self._submissions: Coalescer[Submission, NewRating] = Coalescer(
            self._run, max_batch=max_batch, name="rating-intake"
        )

    async def submit(self, visit: Visit, rating: RatingInput, user_signature: str | None = None) -> NewRating:
        """The stored rating once committed; raises the gate's refusal, or Unavailable."""
        return await self._submissions.submit((visit, rating, user_signature))

    async def close(self) -> None:
        """Answer what is queued, then stop."""
        await self._submissions.close()
        await self._group_commit.close()

    async def _run(self, batch: Sequence[Submission]) -> list[NewRating | BaseException]:
        admitted = await self._gate.admit_many([visit for visit, _, _ in batch])
        outcomes: list[Row | BaseException] = []
        for (_, rating, signature), project in zip(batch, admitted, strict=True):
            if isinstance(project, BaseException):
                outcomes.append(project)
                continue
            verdict = user_verdict(project, rating.submitted_by, signature)
            if isinstance(verdict, BaseException):
                outcomes.append(verdict)
            else:
                outcomes.append(
                    (project.id, replace(rating, submitted_by_verified=True) if verdict else rating)
                )
        rows = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        stored = iter(await self._group_commit.write(rows) if rows else ())
        return [outcome if isinstance(outcome, BaseException) else next(stored) for outcome in outcomes]
