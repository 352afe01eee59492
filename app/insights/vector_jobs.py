"""What every job that fills vectors shares, whoever wrote the texts (feedback items, survey answers,
ideas): the vector rows asked for in the caller's transaction under one outbox job, and a sender that
embeds each claimed job's texts in one batch, with their languages, paced behind requests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.insights.embedders import EmbeddingsUnavailable
from app.insights.engine import InsightsEngine
from app.insights.languages import language_of
from app.operations.metrics import REQUEST_STATS
from app.outbox import ClaimedJob, Outcome, enqueue
from app.timestamps import utc_now

RETRY_DELAYS = (10.0, 60.0, 300.0, 1800.0, 3600.0, 21600.0)
PAUSE = 3.0
"""After a job that overlapped requests, the next waits this many times the job's duration."""


class VectorRow(Protocol):
    """A row that holds one text's vector and names the job that fills it."""

    job_id: Any
    vector: bytes | None


Key = TypeVar("Key", bound=Hashable)
Row = TypeVar("Row", bound=VectorRow)


async def queue_vector_rows(
    session: AsyncSession,
    kind: str,
    keys: Sequence[Key],
    existing: Select[tuple[Row]],
    key_of: Callable[[Row], Key],
    new_row: Callable[[Key, Any], Row],
) -> None:
    """One job of `kind` for the vectors of `keys`, in the caller's transaction: a key without a row
    (`existing` selects those there are) gets one naming the job; a key with one (its text changed) has
    its vector emptied and names the job instead."""
    job = enqueue(session, kind)
    rows = {key_of(row): row for row in await session.scalars(existing)}
    for key in keys:
        row = rows.get(key)
        if row is None:
            session.add(new_row(key, job.id))
        else:
            row.job_id, row.vector = job.id, None


class VectorSender:
    """An outbox handler that embeds each claimed job's texts in one batch, one job at a time, paced;
    a subclass reads and writes its own rows (`embed_job`)."""

    kind: ClassVar[str]
    share: ClassVar[int]
    lease_margin: ClassVar[timedelta | None] = None
    """When set, the claimed jobs not started this close to their lease's end are left: they are taken
    again once the lease ends, rather than done twice."""

    def __init__(self, session_maker: async_sessionmaker[AsyncSession], engine: InsightsEngine) -> None:
        self._session_maker = session_maker
        self._engine = engine
        self._pace = Pace(REQUEST_STATS.answered)

    @property
    def retry_delays(self) -> Sequence[float]:
        return RETRY_DELAYS

    @property
    def model(self) -> str:
        """The name of the embedder the vectors are written by."""
        return self._engine.embedder.name

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        for job in jobs:
            async with self._pace.turn():
                if self.lease_margin is not None and utc_now() > job.lease - self.lease_margin:
                    return
                try:
                    outcome = await self.embed_job(job)
                except EmbeddingsUnavailable as exc:
                    outcome = Outcome(ok=False, error=str(exc)[:500])
            yield job, outcome

    async def embed_job(self, job: ClaimedJob) -> Outcome:
        """Read the job's texts, `embed` them and write the vectors."""
        raise NotImplementedError

    async def embed(self, texts: Sequence[str]) -> tuple[np.ndarray, list[str | None]]:
        """The texts' vectors and languages; languages off the event loop too (the detector's first call
        loads its model)."""
        vectors = await self._engine.embedder.embed(texts)
        return vectors, await asyncio.to_thread(languages_of, texts)


class Pace:
    """Embedding gives way to requests: after a job during which the process answered requests, the next
    one waits PAUSE times as long as that job took. While requests keep coming, embedding takes at most
    1 / (1 + PAUSE) of the time; an idle process embeds at full speed."""

    def __init__(
        self,
        answered: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._answered = answered
        self._clock = clock
        self._sleep = sleep
        self._resume_at = 0.0
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        async with self._lock:  # one job at a time, however many the dispatcher runs
            await self._sleep(max(0.0, self._resume_at - self._clock()))
            answered, started = self._answered(), self._clock()
            try:
                yield
            finally:
                if self._answered() != answered:
                    ended = self._clock()
                    self._resume_at = ended + PAUSE * (ended - started)


def languages_of(texts: Sequence[str]) -> list[str | None]:
    return [language_of(text) for text in texts]
