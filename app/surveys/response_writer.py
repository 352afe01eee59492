"""Stores survey responses, any number at once, in the caller's transaction: every rule of a submit
lives here, whether the submit comes alone (the hosted page, in its request's transaction) or in a batch
of the widget's submits (app/surveys/intake.py, one transaction for the batch).

Each submission is checked whole, in the order given, before anything of it is kept: a refused one (400
naming the field, 403, 404) is answered with its refusal and writes nothing, the others are stored.
Locks are taken in one order: the batch's surveys (in id order; exclusive for a survey with
max_responses, whose completed responses are counted, shared for the others), then the responses
amended (in id order), then the counters in key order; erasure and retention take the response rows and
then the counters. Under the lock a survey's completed responses are counted once, and each submission
of the batch that completes a response adds one: the one that reaches max_responses completes the
survey, and every later one of the batch is refused as for a completed survey. Counters are summed over
the batch and written once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from operator import attrgetter
from typing import Any, NamedTuple
from uuid import UUID

import msgspec
from sqlalchemy import Table, bindparam, select, union_all
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from uuid_utils.compat import uuid7

from app.db.counter_upsert import counter_rows, upsert_columns
from app.db.json_records import add_to_counters as json_add_to_counters
from app.db.json_records import insert_records
from app.db.models import Survey, SurveyCounter, SurveyResponse, SurveyStatus
from app.db.row_locks import lock_rows
from app.errors import ApiError, Forbidden, InvalidRequest, NotFound
from app.ingest import DriverStatement, counter_upsert
from app.insights.engine import insights_engine
from app.surveys.answer_themes import queue_answer_vectors
from app.surveys.answers import checked_answer, merged, missing_required
from app.surveys.bodies import AnswerIn, SurveyResponseOut
from app.surveys.counters import Counted, CounterKey, KeyInSurvey
from app.surveys.definition import Question, questions_of
from app.surveys.service import response_counts
from app.timestamps import utc_now
from app.webhooks.events import (
    SURVEY_RESPONSE_COMPLETED,
    Event,
    record_events,
    survey_response_completed,
)
from app.webhooks.subscriptions import Subscription, remember_subscriptions

ACTIVE = SurveyStatus.ACTIVE.value
_RESPONSES: Table = SurveyResponse.__table__  # type: ignore[assignment]


class Submission(msgspec.Struct, kw_only=True):
    """One call's answers, from the widget or the hosted page."""

    answers: list[AnswerIn]
    language: str
    path: str | None = None
    completed: bool = False
    response_id: UUID | None = None
    submitted_by: str | None = None
    submitted_by_verified: bool = False
    spam: bool = False


class ResponseToStore(NamedTuple):
    project_id: UUID
    org_id: UUID
    survey_id: UUID
    submission: Submission
    webhooks: tuple[Subscription, ...] | None = None
    """The organization's webhook endpoints when known already (the public endpoints' project cache)."""


class StoredResponse(msgspec.Struct, kw_only=True):
    """A response just inserted, with the attributes of a stored SurveyResponse."""

    id: UUID
    created_at: datetime
    updated_at: datetime
    survey_id: UUID
    project_id: UUID
    answers: list[dict[str, Any]]
    language: str
    path: str | None
    completed: bool
    day: date
    submitted_by: str | None
    submitted_by_verified: bool
    spam: bool


Stored = StoredResponse | SurveyResponse
"""A new response, or the stored one a submission amended."""

_SURVEYS: Table = Survey.__table__  # type: ignore[assignment]
_SURVEY_STATES = select(
    _SURVEYS.c.id, _SURVEYS.c.project_id, _SURVEYS.c.status, _SURVEYS.c.max_responses, _SURVEYS.c.updated_at
).where(_SURVEYS.c.id.in_(bindparam("ids", expanding=True)))
SurveyState = Any
"""A survey as the batch reads it: a Survey, or (SQLite, no max_responses) a row of its id, project_id,
status, max_responses and updated_at."""


def _columns() -> tuple[str, ...]:
    """The columns an insert fills: all but the ORM's insert sentinel (it stays NULL), each from the
    StoredResponse field of its name."""
    columns = tuple(c.name for c in _RESPONSES.columns if not c._insert_sentinel)
    if missing := set(columns) - set(StoredResponse.__struct_fields__):
        raise TypeError(f"survey_responses columns filled by no field of StoredResponse: {sorted(missing)}")
    return columns


RESPONSE_COLUMNS = _columns()
_values = attrgetter(*RESPONSE_COLUMNS)
"""A StoredResponse's values in the order of RESPONSE_COLUMNS (attrgetter builds the tuple in C)."""


class SqliteStatements(NamedTuple):
    insert: DriverStatement
    counters: DriverStatement


_SQLITE_STATEMENTS: dict[type[Dialect], SqliteStatements] = {}


def sqlite_statements(dialect: Dialect) -> SqliteStatements:
    """SQLite: the new responses of a batch and its counter deltas written by the driver itself, each
    value through its column's bind processor (as the ORM stores it) without SQLAlchemy's per-row work,
    as the rating batches are. One pair per kind of dialect (an engine's dialect object is not kept: the
    tests make many engines)."""
    found = _SQLITE_STATEMENTS.get(type(dialect))
    if found is None:
        columns, marks = ", ".join(RESPONSE_COLUMNS), ", ".join("?" * len(RESPONSE_COLUMNS))
        sql = f"INSERT INTO {_RESPONSES.name} ({columns}) VALUES ({marks})"
        found = _SQLITE_STATEMENTS[type(dialect)] = SqliteStatements(
            DriverStatement(sql, _RESPONSES, RESPONSE_COLUMNS, dialect),
            counter_upsert(SurveyCounter.__table__, dialect),  # type: ignore[arg-type]
        )
    return found


_COUNTERS: Table = SurveyCounter.__table__  # type: ignore[assignment]
_COUNTER_COLUMNS = upsert_columns(_COUNTERS)
INSERT_AND_COUNT = f"""
WITH stored AS ({insert_records(_RESPONSES, {column: column for column in RESPONSE_COLUMNS}, "responses")})
{json_add_to_counters(_COUNTERS, "deltas")}
"""
"""PostgreSQL: a batch's new responses (StoredResponses, by field name) and its counter deltas (in key
order, the order every writer of survey counters takes their locks in) as one statement, one round trip."""


async def store_responses(session: AsyncSession, items: Sequence[ResponseToStore]) -> list[Stored | ApiError]:
    """Each submission's stored response, or its refusal; the caller commits."""
    surveys = await _locked_surveys(session, {item.survey_id for item in items})
    definitions = await _definitions(session, surveys.values())
    ids = sorted({item.submission.response_id for item in items if item.submission.response_id})
    amended = await _locked_responses(session, ids)
    capped = [s.id for s in surveys.values() if s.max_responses is not None and s.status == ACTIVE]
    rules = {survey_id: _Rules(survey, definitions[survey_id]) for survey_id, survey in surveys.items()}
    for survey_id in {item.survey_id for item in items} - surveys.keys():
        _UNLOCKED.pop(survey_id, None)
    for survey_rules in rules.values():
        _note_unlocked(survey_rules)
    batch = _Batch(rules, amended, await response_counts(session, capped, "completed"))
    results = [batch.take(item) for item in items]
    await batch.write(session)
    return results


async def _locked_surveys(session: AsyncSession, ids: set[UUID]) -> dict[UUID, SurveyState]:
    """The surveys, locked so that a change or deletion waits for this batch: exclusive for those with
    max_responses (their completed responses are counted), shared for the others (batches of other
    processes go on beside this one)."""
    if session.get_bind().dialect.name == "sqlite":
        return await _locked_surveys_sqlite(session, ids)
    found: dict[UUID, SurveyState] = {
        s.id: s for s in await session.scalars(_LOCK_SURVEYS, {"ids": list(ids)})
    }
    if missing := ids - found.keys():
        # Not found, or its max_responses changed while this waited for its lock (the row then left
        # the part that read it): asked again, it is where it belongs now.
        found.update((s.id, s) for s in await session.scalars(_LOCK_SURVEYS, {"ids": list(missing)}))
    return found


def _lock_surveys() -> Any:
    """One statement: the surveys with max_responses locked for update, then the others for share,
    each part in id order (the order every batch locks them in), each row as it is once locked."""
    table = Survey.__table__
    ids = table.c.id.in_(bindparam("ids", expanding=True))
    capped = select(table).where(ids, table.c.max_responses.is_not(None)).order_by(table.c.id)
    free = select(table).where(ids, table.c.max_responses.is_(None)).order_by(table.c.id)
    parts = capped.with_for_update().cte("capped"), free.with_for_update(read=True).cte("free")
    query = union_all(*(select(part) for part in parts))
    return select(Survey).from_statement(query).execution_options(populate_existing=True)


_LOCK_SURVEYS = _lock_surveys()


async def _locked_surveys_sqlite(session: AsyncSession, ids: set[UUID]) -> dict[UUID, SurveyState]:
    """SQLite has one writer: the surveys with max_responses are written unchanged to take its lock
    before they are counted; nothing can delete the others before this commits. Only the columns a
    submit's checks need are read (the questions come from the compiled definitions)."""
    found: dict[UUID, SurveyState] = {
        row.id: row for row in await session.execute(_SURVEY_STATES, {"ids": list(ids)})
    }
    if capped := sorted(i for i, s in found.items() if s.max_responses is not None):
        locked = await lock_rows(session, Survey, [Survey.id.in_(capped)], [Survey.id])
        for survey in locked:
            found[survey.id] = survey
        for gone in set(capped) - {survey.id for survey in locked}:
            del found[gone]
    return found


async def _locked_responses(session: AsyncSession, ids: list[UUID]) -> dict[UUID, SurveyResponse]:
    if not ids:
        return {}
    rows = await lock_rows(session, SurveyResponse, [SurveyResponse.id.in_(ids)], [SurveyResponse.id])
    return {row.id: row for row in rows}


class _Definition(NamedTuple):
    """What a submit to a survey is checked against, compiled from its stored questions once per
    version of the survey (its id and updated_at) in each worker, rather than once per batch."""

    project_id: UUID
    verified_only: bool
    languages: frozenset[str]
    questions: list[Question]
    by_id: dict[str, Question]
    open_text: bool
    """Whether any question takes text (whose answers are embedded)."""
    name: str
    language_list: list[str]


class _Rules(NamedTuple):
    """A survey's state as read for a batch, with its compiled definition."""

    survey: SurveyState
    definition: _Definition


_DEFINITIONS: dict[tuple[UUID, datetime], _Definition] = {}
MAX_DEFINITIONS = 1000
"""Compiled definitions a worker keeps (dropped all at once past this: a new version of a survey
leaves its old one behind)."""


def _compiled(survey: Survey) -> _Definition:
    key = (survey.id, survey.updated_at)
    found = _DEFINITIONS.get(key)
    if found is None:
        if len(_DEFINITIONS) >= MAX_DEFINITIONS:
            _DEFINITIONS.clear()
        questions = questions_of(survey.questions)
        found = _DEFINITIONS[key] = _Definition(
            survey.project_id,
            bool(survey.audience.get("verified_only")),
            frozenset(survey.languages),
            questions,
            {question.id: question for question in questions},
            any(question.type == "open_text" for question in questions),
            survey.name,
            list(survey.languages),
        )
    return found


async def _definitions(session: AsyncSession, surveys: Iterable[SurveyState]) -> dict[UUID, _Definition]:
    """Each survey's compiled definition for the version read in this transaction: from this worker's
    cache, else compiled from the row (read whole when only its state was read)."""
    found: dict[UUID, _Definition] = {}
    unknown: list[UUID] = []
    for survey in surveys:
        if isinstance(survey, Survey):
            found[survey.id] = _compiled(survey)
        elif (definition := _DEFINITIONS.get((survey.id, survey.updated_at))) is not None:
            found[survey.id] = definition
        else:
            unknown.append(survey.id)
    if unknown:
        for survey in await session.scalars(select(Survey).where(Survey.id.in_(unknown))):
            found[survey.id] = _compiled(survey)
    return found


class SurveyVersion(NamedTuple):
    """A survey's state as a batch without locks is checked against (a SurveyState)."""

    id: UUID
    project_id: UUID
    status: str
    max_responses: int | None
    updated_at: datetime


_UNLOCKED: dict[UUID, _Rules] = {}
"""This worker's rules of the surveys that take new responses without locks (active, no max_responses),
as the last batch that locked them read them: its SurveyVersion and compiled definition."""


def _note_unlocked(rules: _Rules) -> None:
    survey = rules.survey
    if survey.status != ACTIVE or survey.max_responses is not None:
        _UNLOCKED.pop(survey.id, None)
        return
    if len(_UNLOCKED) >= MAX_DEFINITIONS and survey.id not in _UNLOCKED:
        _UNLOCKED.clear()
    version = SurveyVersion(survey.id, survey.project_id, survey.status, None, survey.updated_at)
    _UNLOCKED[survey.id] = rules._replace(survey=version)


def forget_unlocked(survey_ids: Iterable[UUID]) -> None:
    """These surveys changed since this worker read them: their next batch takes the locks."""
    for survey_id in survey_ids:
        _UNLOCKED.pop(survey_id, None)


def takes_unlocked(item: ResponseToStore) -> bool:
    """Whether the submission can be checked against this worker's copy of its survey and stored
    without locks: a new response (no response_id) to a survey known to be active without
    max_responses, that announces nothing (no webhook endpoint wants it) and gives no open-text answer
    to embed. Anything else takes the locking path."""
    rules = _UNLOCKED.get(item.survey_id)
    submission = item.submission
    if rules is None or submission.response_id is not None:
        return False
    if submission.completed and not submission.spam and _announced(item):
        return False
    if rules.definition.open_text and not submission.spam and insights_engine().enabled:
        by_id = rules.definition.by_id
        for answer in submission.answers:
            question = by_id.get(answer.question_id)
            if question is not None and question.type == "open_text":
                return False
    return True


class UnlockedBatch(NamedTuple):
    """Submissions judged against this worker's copies of their surveys: stored only if every survey
    is still at `versions` when they are written, each result then stands; else all go the locking way."""

    results: list[Stored | ApiError]
    new: list[StoredResponse]
    deltas: dict[CounterKey, int]
    versions: dict[UUID, datetime]
    """Each survey judged against, and its updated_at as this worker knows it."""

    def rows(self) -> list[tuple[Any, ...]]:
        """The new responses' values in the order of RESPONSE_COLUMNS."""
        return [_values(response) for response in self.new]


def judge_unlocked(items: Sequence[ResponseToStore]) -> UnlockedBatch | None:
    """`items`, each taking takes_unlocked, judged in order against this worker's copies of their
    surveys, by the same rules as a locking batch; None when a copy went meanwhile (a request's locking
    write found its survey changed)."""
    found = {item.survey_id: _UNLOCKED.get(item.survey_id) for item in items}
    rules = {survey_id: survey_rules for survey_id, survey_rules in found.items() if survey_rules is not None}
    if len(rules) < len(found):
        return None
    batch = _Batch(rules, {}, {})
    results = [batch.take(item) for item in items]
    versions = {survey_id: survey_rules.survey.updated_at for survey_id, survey_rules in rules.items()}
    return UnlockedBatch(results, batch.new, batch.deltas(), versions)


class _Batch:
    """What the batch's accepted submissions change, gathered in order and written at once."""

    def __init__(
        self, rules: dict[UUID, _Rules], amended: dict[UUID, SurveyResponse], completed: dict[UUID, int]
    ) -> None:
        self.rules = rules
        """What a submit to each survey of the batch is checked against."""
        self.amended = amended
        self.completed = completed
        """Completed responses per survey with max_responses: counted, then this batch's added."""
        self.now = utc_now()
        self.new: list[StoredResponse] = []
        self.counts: dict[UUID, Counter[KeyInSurvey]] = defaultdict(Counter)
        """What the survey counters gain, per survey."""
        self.texts: list[tuple[Stored, list[str]]] = []
        self.events: dict[UUID, list[Event]] = defaultdict(list)
        self.webhooks: dict[UUID, tuple[Subscription, ...]] = {}

    def take(self, item: ResponseToStore) -> Stored | ApiError:
        try:
            return self._take(item)
        except (InvalidRequest, Forbidden, NotFound) as refusal:
            return refusal

    def _take(self, item: ResponseToStore) -> Stored:
        rules, submission = self.rules.get(item.survey_id), item.submission
        if rules is None or rules.definition.project_id != item.project_id:
            raise NotFound("survey_id: no survey with this id in this project")
        definition = rules.definition
        survey = rules.survey
        if (status := survey.status) != ACTIVE:
            raise InvalidRequest("survey_id", f"this survey is {status}: it takes no responses")
        if definition.verified_only and not submission.submitted_by_verified:
            raise Forbidden("user_signature: this survey takes responses from verified users only")
        if submission.language not in definition.languages:
            raise InvalidRequest(
                "language", f"is not one of the survey's languages {definition.language_list}"
            )
        given: list[dict[str, Any]] = []
        seen: set[str] = set()
        for at, answer in enumerate(submission.answers):
            question_id = answer.question_id
            if question_id in seen:
                raise InvalidRequest(f"answers[{at}].question_id", f"{question_id!r} is answered twice")
            seen.add(question_id)
            given.append(checked_answer(at, definition.by_id.get(question_id), question_id, answer.value))
        response: Stored | None = None
        if submission.response_id is not None:
            response = self.amended.get(submission.response_id)
            if response is None or response.survey_id != item.survey_id:
                raise InvalidRequest("response_id", "no response with this id to this survey")
        before = None if response is None else Counted.of(response)
        was_completed = response is not None and response.completed
        answers = merged(response.answers, given) if response else given
        completed = was_completed or submission.completed
        if completed and (missing := missing_required(definition.questions, answers)) is not None:
            raise InvalidRequest(
                "answers", f"question {missing.id!r} is required before the response completes"
            )
        # Accepted: from here on nothing refuses it.
        if response is None:
            response = self._new(item, answers, completed)
        else:
            response.answers, response.completed = answers, completed
            if response.submitted_by is None and submission.submitted_by is not None:
                response.submitted_by = submission.submitted_by
                response.submitted_by_verified = submission.submitted_by_verified
        counts = self.counts[item.survey_id]
        if before is not None:
            counts.subtract(before.keys_in_survey())
        counts.update(Counted.of(response).keys_in_survey())
        if definition.open_text:
            self._queue_texts(response, before, given)
        if completed and not was_completed and not response.spam:
            self._completes(item, rules, response)
        return response

    def _queue_texts(self, response: Stored, before: Counted | None, given: list[dict[str, Any]]) -> None:
        """The open-text answers this submit gave or changed, to be embedded."""
        earlier = {a["question_id"]: a["value"] for a in (before.answers if before else [])}
        texts = [
            a["question_id"]
            for a in given
            if a["type"] == "open_text" and earlier.get(a["question_id"]) != a["value"]
        ]
        if texts:
            self.texts.append((response, texts))

    def _new(self, item: ResponseToStore, answers: list[dict[str, Any]], completed: bool) -> StoredResponse:
        submission = item.submission
        response = StoredResponse(
            id=uuid7(),
            created_at=self.now,
            updated_at=self.now,
            survey_id=item.survey_id,
            project_id=item.project_id,
            answers=answers,
            language=submission.language,
            path=submission.path,
            completed=completed,
            day=self.now.date(),
            submitted_by=submission.submitted_by,
            submitted_by_verified=submission.submitted_by_verified,
            spam=submission.spam,
        )
        self.new.append(response)
        return response

    def _completes(self, item: ResponseToStore, rules: _Rules, response: Stored) -> None:
        """Announce it, and complete the survey when it reached max_responses completed responses."""
        survey = rules.survey
        if _announced(item):
            body = msgspec.to_builtins(SurveyResponseOut.of(response))  # type: ignore[arg-type]
            about = {**body, "project_id": str(item.project_id), "survey_name": rules.definition.name}
            self.events[item.org_id].append(survey_response_completed(item.project_id, about))
            if item.webhooks is not None:
                self.webhooks[item.org_id] = item.webhooks
        if survey.max_responses is not None:  # then read whole and locked: a Survey
            assert isinstance(survey, Survey)
            self.completed[survey.id] += 1
            if self.completed[survey.id] >= survey.max_responses:
                survey.status = SurveyStatus.COMPLETED.value

    def deltas(self) -> dict[CounterKey, int]:
        return {(survey_id, *key): n for survey_id, moved in self.counts.items() for key, n in moved.items()}

    async def write(self, session: AsyncSession) -> None:
        await session.flush()  # the amended responses and the completed surveys
        dialect = session.get_bind().dialect
        if dialect.name == "sqlite":
            statements = sqlite_statements(dialect)
            rows = [_values(response) for response in self.new]
            deltas = counter_rows(self.deltas())

            def write_sqlite(sync: Session) -> None:  # one hop to the driver's thread for both
                statements.insert.executemany(sync.connection(), rows)
                statements.counters.executemany(sync.connection(), deltas)

            await session.run_sync(write_sqlite)
        elif self.new or self.counts:
            documents = {"responses": json_document(self.new), "deltas": delta_document(self.deltas())}
            connection = await session.connection()
            await connection.exec_driver_sql(INSERT_AND_COUNT, documents)
        for response, texts in self.texts:
            await queue_answer_vectors(session, response, texts)  # type: ignore[arg-type]
        for org_id, events in self.events.items():
            if org_id in self.webhooks:
                remember_subscriptions(session, org_id, self.webhooks[org_id])
            await record_events(session, org_id, events)


def _announced(item: ResponseToStore) -> bool:
    """Whether a completed response may be wanted by a webhook endpoint: not when the organization's
    endpoints are known and none wants it (most submits, so their event is not even built)."""
    return item.webhooks is None or any(
        endpoint.wants(SURVEY_RESPONSE_COMPLETED, item.project_id) for endpoint in item.webhooks
    )


def json_document(value: object) -> str:
    return msgspec.json.encode(value).decode()


def delta_document(deltas: dict[CounterKey, int]) -> str:
    """PostgreSQL: counter deltas as the document INSERT_AND_COUNT reads, in key order."""
    return json_document([dict(zip(_COUNTER_COLUMNS, row, strict=True)) for row in counter_rows(deltas)])
