"""What a kind of outbox work provides to the dispatcher, and what one attempt at it gives back."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from uuid import UUID

from advanced_alchemy.base import UUIDv7AuditBase


@dataclass(frozen=True, slots=True)
class ClaimedJob:
    id: UUID
    kind: str
    attempts: int
    """Attempts made before this one."""
    lease: datetime
    """Until when this dispatcher holds the job; it also identifies the claim when the result is saved."""


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool
    error: str | None = None
    final: bool = False
    """A failure that no retry can mend (the target is gone): the job fails at once."""
    records: Sequence[UUIDv7AuditBase] = field(default_factory=tuple)
    """Rows the handler keeps about the attempt, stored in the same transaction as the job's new state."""
    later: float | None = None
    """Not attempted (its tenant is at its bound): due again after these seconds, no attempt counted."""


def not_now(seconds: float) -> Outcome:
    """The outcome of a job handed back unattempted, due again after `seconds`."""
    return Outcome(ok=False, later=seconds)


class JobHandler(Protocol):
    kind: str
    """The `kind` of the jobs it does."""
    share: int
    """How many jobs of this kind one dispatcher runs at once: each kind has its own share, so slow work
    of one kind (a tenant's silent webhook endpoints) cannot keep another (mail) waiting."""

    @property
    def retry_delays(self) -> Sequence[float]:
        """Seconds before each retry; after the last, the job fails."""
        ...

    def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        """One attempt at each of these jobs (claimed together, so that what they need can be read in
        one query), yielding each outcome as soon as it is known. If it raises, the jobs it yielded
        nothing for are run again one at a time, and a job it raises for alone has a failed attempt; a
        job left without an outcome by a stopped process is attempted again once its lease ends."""
        ...
