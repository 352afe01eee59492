"""Public ratings, admitted and stored in batches (gated_batches.py): the widgets' hottest path. A rating
from a user the project accepts only signed is refused (403) unless its signature holds."""

from __future__ import annotations

from msgspec.structs import replace

from app.ingest.gate import PublicGate, Visit
from app.ingest.gated_batches import GatedBatches
from app.ingest.group_commit import RatingGroupCommit
from app.ingest.project_directory import ProjectEntry
from app.ingest.rating_input import RatingInput
from app.ingest.rating_rows import NewRating, Row
from app.ingest.verified_users import user_verdict

Submission = tuple[RatingInput, str | None]
"""A rating and its user_signature."""


class RatingIntake:
    def __init__(self, gate: PublicGate, group_commit: RatingGroupCommit, max_batch: int = 1000) -> None:
        self._group_commit = group_commit
        self._submissions: GatedBatches[Submission, Row, NewRating] = GatedBatches(
            gate, _admitted, group_commit.write, max_batch=max_batch, name="rating-intake"
        )

    async def submit(self, visit: Visit, rating: RatingInput, user_signature: str | None = None) -> NewRating:
        """The stored rating once committed; raises the gate's refusal, or Unavailable."""
        return await self._submissions.submit(visit, (rating, user_signature))

    async def close(self) -> None:
        """Answer what is queued, then stop."""
        await self._submissions.close()
        await self._group_commit.close()


def _admitted(submission: Submission, project: ProjectEntry) -> Row | BaseException:
    rating, signature = submission
    verdict = user_verdict(project, rating.submitted_by, signature)
    if isinstance(verdict, BaseException):
        return verdict
    return project.id, replace(rating, submitted_by_verified=True) if verdict else rating
