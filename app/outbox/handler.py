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


class JobHandler(Protocol):
    kind: str
    """The `kind` of the jobs it does."""

    @property
    def retry_delays(self) -> Sequence[float]:
        """Seconds before each retry; after the last, the job fails."""
        ...

    def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        """One attempt at each of these jobs (claimed together, so that what they need can be read in
        one query), yielding each outcome as soon as it is known. A job it yields nothing for (it
        raised, or the process stopped) is attempted again once its lease ends."""
        ...
