"""The widget's survey responses, stored in batches: the same gate and group commit as ratings.

Submissions that arrive together are judged by the public gate in one batch, then stored at once
(Ingest.gated_batches over `admitted` and SurveyIntake.write): each request is answered with its refusal
(400, 403, 404, 429), or its stored response once the commit succeeded.

Most submissions are new responses to a survey without max_responses that this worker has read before
(response_writer.takes_unlocked): they are checked against the worker's copy of the survey and written
in one hop (unlocked_batches.py), the write confirming that every survey is still as copied. The rest
(amendments, surveys with max_responses, a survey not known yet or changed meanwhile, announced
completions, open text to embed) are stored in one transaction that locks the surveys first
(response_writer.store_responses), which also refreshes the worker's copies.

Either way a batch that fails is written again submission by submission (GroupCommit), so one that
cannot be stored fails alone (503) and the others are stored. A batch not committed within the request
deadline is answered 503 at once (a frozen database must not hang them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any, NamedTuple, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.ids import parse_uuid
from app.db.transactions import unit_of_work
from app.errors import ApiError
from app.ingest import GatedBatches, GroupCommit, Ingest, ProjectEntry, user_verdict
from app.operations.deadline import REQUEST_DEADLINE_SECONDS
from app.surveys.bodies import PublicSurveyResponseBody
from app.surveys.response_writer import (
    ResponseToStore,
    Stored,
    Submission,
    forget_unlocked,
    judge_unlocked,
    store_responses,
    takes_unlocked,
)
from app.surveys.unlocked_batches import UnlockedBatches

MAX_BATCH = 500
"""Submissions stored in one batch at most."""
WRITE_DEADLINE_SECONDS = REQUEST_DEADLINE_SECONDS
"""A batch not committed by then is answered 503, as a request past the deadline every other request has
(the submits are exempt from that one: a task per request would cost the hot path)."""

T = TypeVar("T")


class SubmittedResponse(NamedTuple):
    """A widget's submit as the gate lets it through: the survey's id as sent, the body, and whether it
    is spam."""

    survey_id: str
    body: PublicSurveyResponseBody
    spam: bool


def admitted(submitted: SubmittedResponse, project: ProjectEntry) -> ResponseToStore | BaseException:
    """The submission to store in the admitted project, or its refusal (403 for a user the project
    accepts only signed, 400 for a survey id that is none)."""
    body = submitted.body
    verdict = user_verdict(project, body.submitted_by, body.user_signature)
    if isinstance(verdict, BaseException):
        return verdict
    try:
        survey_id = parse_uuid(submitted.survey_id, "survey_id")
    except ApiError as refusal:
        return refusal
    submission = Submission(
        answers=body.answers,
        language=body.language,
        path=body.path,
        completed=body.completed,
        response_id=body.response_id,
        submitted_by=body.submitted_by,
        submitted_by_verified=verdict,
        spam=submitted.spam,
    )
    return ResponseToStore(project.id, project.org_id, survey_id, submission, project.webhooks)


SurveySubmissions = GatedBatches[SubmittedResponse, ResponseToStore, Stored]


def survey_submissions(ingest: Ingest, intake: SurveyIntake) -> SurveySubmissions:
    """The widget's submits, judged by the worker's gate and stored by `intake`, in batches."""
    return ingest.gated_batches(admitted, intake.write, max_batch=MAX_BATCH, name="survey-intake")


class _SurveyChanged(Exception):
    """In a submission's place: a survey of its unlocked batch changed, so it goes the locking way."""


_CHANGED = _SurveyChanged()


class SurveyIntake:
    def __init__(
        self, session_maker: async_sessionmaker[AsyncSession], unlocked: UnlockedBatches | None = None
    ) -> None:
        """Without `unlocked`, every batch takes the locking path."""
        self._session_maker = session_maker
        self._unlocked = unlocked
        self._abandoned: set[asyncio.Future[Any]] = set()
        noun = "survey response"
        self._locking: GroupCommit[ResponseToStore, Stored] = GroupCommit(self._write_locking, noun)
        self._without_locks: GroupCommit[ResponseToStore, Stored] = GroupCommit(self._write_unlocked, noun)

    async def write(self, batch: Sequence[ResponseToStore]) -> list[Stored | BaseException]:
        """Each submission's stored response (committed), its refusal, or Unavailable."""
        results: list[Stored | BaseException | None] = [None] * len(batch)
        if self._unlocked is not None:
            quick = [at for at, item in enumerate(batch) if takes_unlocked(item)]
            if quick:
                written = await self._without_locks.write([batch[at] for at in quick])
                for at, result in zip(quick, written, strict=True):
                    if result is not _CHANGED:
                        results[at] = result
        rest = [at for at, result in enumerate(results) if result is None]
        if rest:
            for at, result in zip(rest, await self._locking.write([batch[at] for at in rest]), strict=True):
                results[at] = result
        return results  # type: ignore[return-value]

    async def close(self) -> None:
        """Closes the writer's own connection (the batches' callers are answered by then)."""
        if self._unlocked is not None:
            await self._unlocked.close()

    async def _write_unlocked(self, batch: Sequence[ResponseToStore]) -> list[Stored | BaseException]:
        assert self._unlocked is not None
        judged = judge_unlocked(batch)
        if judged is not None and await self._in_time(self._unlocked.write(judged)):
            return judged.results  # type: ignore[return-value]
        if judged is not None:
            forget_unlocked(judged.versions)
        return [_CHANGED] * len(batch)

    async def _write_locking(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        return await self._in_time(self._store(batch))

    async def _in_time(self, write: Coroutine[Any, Any, T]) -> T:
        writing = asyncio.ensure_future(write)
        done, _ = await asyncio.wait((writing,), timeout=WRITE_DEADLINE_SECONDS)
        if not done:
            # Not awaited: cancelling a query on a frozen database takes the driver seconds more. The
            # task unwinds on its own; the batch's requests are answered 503 now.
            writing.cancel()
            self._abandoned.add(writing)
            writing.add_done_callback(self._abandoned.discard)
            raise TimeoutError("the survey responses were not committed in time")
        return writing.result()

    async def _store(self, batch: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
        async with unit_of_work(self._session_maker) as session:
            return await store_responses(session, batch)
