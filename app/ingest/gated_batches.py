"""Public submissions judged and stored in batches: the shape both the ratings and the survey responses
take.

Submissions that arrive together wait in one Coalescer. One task takes everything queued, has the gate
judge the whole batch (one budget call), lets the kind of submission judge each admitted one against
its project (a signed user, say), writes the rest with the kind's batch writer, then answers every
request: its refusal (404, 403, 429, ...) or what was stored once its commit succeeded. Each request
waits once, and the budget call and the commit share the same, larger batches.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from app.ingest.coalescer import Coalescer
from app.ingest.gate import PublicGate, Visit
from app.ingest.project_directory import ProjectEntry

P = TypeVar("P")
Row = TypeVar("Row")
R = TypeVar("R")

Admitted = Callable[[P, ProjectEntry], Row | BaseException]
"""A submission of an admitted visit, as its writer stores it in that project, or its refusal."""
BatchWrite = Callable[[Sequence[Row]], Awaitable[Sequence[R | BaseException]]]
"""Stores the rows (committed): one result per row, in order, or a row's own refusal or failure."""


class GatedBatches(Generic[P, Row, R]):
    def __init__(
        self,
        gate: PublicGate,
        admitted: Admitted[P, Row],
        write: BatchWrite[Row, R],
        *,
        max_batch: int,
        name: str,
    ) -> None:
        self._gate = gate
        self._admitted = admitted
        self._write = write
        self._submissions: Coalescer[tuple[Visit, P], R] = Coalescer(
            self._run, max_batch=max_batch, name=name
        )

    async def submit(self, visit: Visit, submission: P) -> R:
        """What was stored once committed; raises the refusal, or Unavailable."""
        return await self._submissions.submit((visit, submission))

    async def close(self) -> None:
        """Answer what is queued, then stop."""
        await self._submissions.close()

    async def _run(self, batch: Sequence[tuple[Visit, P]]) -> list[R | BaseException]:
        admitted = await self._gate.admit_many([visit for visit, _ in batch])
        outcomes: list[Row | BaseException] = [
            project if isinstance(project, BaseException) else self._admitted(submission, project)
            for (_, submission), project in zip(batch, admitted, strict=True)
        ]
        rows = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
        stored = iter(await self._write(rows) if rows else ())
        return [outcome if isinstance(outcome, BaseException) else next(stored) for outcome in outcomes]
