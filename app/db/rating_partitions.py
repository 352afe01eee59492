"""Ratings partitioned by month on PostgreSQL: the table's conversion, the months created ahead, and
whole months dropped once every rating in them has outlived its project's retention.

`ratings` is `PARTITION BY RANGE (created_at)`, with one partition per UTC month named
`ratings_pYYYY_MM`, a default partition `ratings_default` for a rating no month holds (a month not made
yet, an import older than the first month), and, on a database that held ratings when it was converted,
`ratings_before_YYYY_MM`: the old table itself, attached as the partition of every moment before that
month, so the conversion moved no row (docs/scale.md says how it runs without stopping submissions).

The primary key is (id, created_at): PostgreSQL asks a partitioned table's unique keys to hold the
partition key. Nothing refers to a rating by a foreign key, and ids are UUIDv7 made by the application, so
the id stays unique in practice; the ORM still knows a rating by its id alone. SQLite keeps a plain table
and none of this runs there.

Months are UTC months, as the day counters' days are UTC days, so the counters of a month's days count
exactly the ratings of that month's partition: dropping a partition takes those counters off with it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TypeVar
from uuid import UUID

from sqlalchemy import Table, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.counter_upsert import counter_rows, key_columns, upsert_columns, upsert_statement
from app.db.models import ALL_PATHS, RatingTotal

TABLE = "ratings"
DEFAULT = "ratings_default"
MONTHS_AHEAD = 3
"""Months made ahead of the current one: the periodic job may be off or failing for weeks before a
rating finds no month (and lands in the default partition, still stored)."""
LOCK_TIMEOUT = "2s"
"""How long a partition change waits for its lock. Creating, attaching or dropping a partition locks the
parent table for an instant, but waits for every query already using it (an export can run for
minutes) while every new query waits behind it: giving up soon and trying again at the next look keeps
submissions flowing."""
ADVISORY_LOCK = 0x48454152_4B454E31
"""pg_try_advisory_xact_lock key ("HEARKEN1") held by the one process that maintains the partitions at a
time, whichever node it runs on."""

_MONTH = re.compile(r"^ratings_p(\d{4})_(\d{2})$")
_BEFORE = re.compile(r"^ratings_before_(\d{4})_(\d{2})$")

logger = logging.getLogger("hearken.partitions")
T = TypeVar("T")
_TOTALS: Table = RatingTotal.__table__  # type: ignore[assignment]


def month_start(moment: datetime | date) -> date:
    return date(moment.year, moment.month, 1)


def add_months(month: date, count: int) -> date:
    index = month.year * 12 + month.month - 1 + count
    return date(index // 12, index % 12 + 1, 1)


def month_name(month: date) -> str:
    return f"ratings_p{month.year:04d}_{month.month:02d}"


def _bound(month: date) -> str:
    """A partition bound literal: midnight UTC on the first of the month."""
    return f"'{month.isoformat()} 00:00:00+00'"


@dataclass(frozen=True)
class Partition:
    name: str
    lower: date | None
    """None: from the beginning of time (the table held before the conversion)."""
    upper: date


def is_partitioned(connection: Connection) -> bool:
    return bool(
        connection.scalar(
            text("SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = :name AND relkind = 'p')"),
            {"name": TABLE},
        )
    )


def partitions(connection: Connection) -> list[Partition]:
    """The ranged partitions of `ratings`, oldest first (the default partition has no range)."""
    names = connection.scalars(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = CAST(:table AS regclass)"
        ),
        {"table": TABLE},
    )
    found = []
    for name in names:
        if match := _MONTH.match(name):
            lower = date(int(match[1]), int(match[2]), 1)
            found.append(Partition(name, lower, add_months(lower, 1)))
        elif match := _BEFORE.match(name):
            found.append(Partition(name, None, date(int(match[1]), int(match[2]), 1)))
    return sorted(found, key=lambda partition: partition.upper)


def _create_parent(connection: Connection, like: str) -> None:
    """The partitioned `ratings`, with the columns of `like`, its keys and its indexes (no partition)."""
    connection.execute(
        text(f"CREATE TABLE {TABLE} (LIKE {like} INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)")
    )
    connection.execute(text(f"ALTER TABLE {TABLE} ADD CONSTRAINT pk_ratings PRIMARY KEY (id, created_at)"))
    connection.execute(
        text(
            f"ALTER TABLE {TABLE} ADD CONSTRAINT fk_ratings_project_id_projects FOREIGN KEY (project_id) "
            "REFERENCES projects (id) ON DELETE CASCADE"
        )
    )
    connection.execute(
        text(f"CREATE INDEX ix_ratings_list ON {TABLE} (project_id, rating_type, archived, created_at, id)")
    )
    connection.execute(
        text(f"CREATE INDEX ix_ratings_path ON {TABLE} (project_id, rating_type, path, archived, created_at)")
    )


def partition_table(connection: Connection, now: datetime, *, ahead: int = MONTHS_AHEAD) -> None:
    """Turn the plain `ratings` into the partitioned one, on a connection in autocommit.

    An empty table is replaced at once. A filled one becomes the partition of every moment before next
    month, without copying a row and without stopping writes:
    1. a unique index on (id, created_at) is built CONCURRENTLY (writes go on);
    2. a CHECK (created_at < next month) is added NOT VALID, then validated (writes go on: validation
       takes a lock that only other schema changes wait for);
    3. one short transaction renames the table, creates the partitioned `ratings`, and attaches the old
       table as its partition: the index and the check let PostgreSQL attach it without building an
       index or reading a row. Writers wait for this transaction (milliseconds), none fails.
    Then the months from next month on and the default partition are created."""
    if is_partitioned(connection):
        return
    boundary = add_months(month_start(now), 1)
    empty = not connection.scalar(text(f"SELECT EXISTS (SELECT 1 FROM {TABLE})"))
    if empty:
        replace = ";".join(
            (
                "ALTER INDEX pk_ratings RENAME TO ratings_plain_pkey",
                "ALTER INDEX ix_ratings_list RENAME TO ratings_plain_list",
                "ALTER INDEX ix_ratings_path RENAME TO ratings_plain_path",
                "CREATE_PARENT",
                "DROP TABLE ratings_plain",
            )
        )
        _swap(connection, replace, rename_to="ratings_plain")
        _ensure_months(connection, month_start(now), ahead)
        return
    before, bound = f"ratings_before_{boundary.year:04d}_{boundary.month:02d}", _bound(boundary)
    connection.execute(
        text(f"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {before}_pkey ON {TABLE} (id, created_at)")
    )
    connection.execute(text(f"ALTER TABLE {TABLE} DROP CONSTRAINT IF EXISTS {before}_bound"))
    connection.execute(
        text(f"ALTER TABLE {TABLE} ADD CONSTRAINT {before}_bound CHECK (created_at < {bound}) NOT VALID")
    )
    connection.execute(text(f"ALTER TABLE {TABLE} VALIDATE CONSTRAINT {before}_bound"))
    attach = ";".join(
        (
            f"ALTER TABLE {before} DROP CONSTRAINT pk_ratings",
            f"ALTER TABLE {before} ADD CONSTRAINT {before}_pkey PRIMARY KEY USING INDEX {before}_pkey",
            f"ALTER INDEX ix_ratings_list RENAME TO {before}_list",
            f"ALTER INDEX ix_ratings_path RENAME TO {before}_path",
            f"ALTER TABLE {before} RENAME CONSTRAINT fk_ratings_project_id_projects TO {before}_project_id",
            "CREATE_PARENT",
            f"ALTER TABLE {TABLE} ATTACH PARTITION {before} FOR VALUES FROM (MINVALUE) TO ({bound})",
            f"ALTER TABLE {before} DROP CONSTRAINT {before}_bound",
        )
    )
    _swap(connection, attach, rename_to=before)
    _ensure_months(connection, boundary, ahead - 1)


def _swap(connection: Connection, then: str, *, rename_to: str) -> None:
    """In one transaction waiting LOCK_TIMEOUT at most for its lock (tried again until it gets it): the
    plain table renamed `rename_to`, the partitioned `ratings` created, and `then`'s statements
    (separated by ';', CREATE_PARENT where the parent is created) run."""
    for attempt in range(100):
        connection.execute(text("BEGIN"))
        try:
            connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
            connection.execute(text(f"LOCK TABLE {TABLE} IN ACCESS EXCLUSIVE MODE"))
            connection.execute(text(f"ALTER TABLE {TABLE} RENAME TO {rename_to}"))
            for statement in then.split(";"):
                if statement == "CREATE_PARENT":
                    _create_parent(connection, rename_to)
                else:
                    connection.execute(text(statement))
            connection.execute(text("COMMIT"))
            return
        except Exception as failure:
            connection.execute(text("ROLLBACK"))
            if "lock timeout" not in str(failure) or attempt == 99:
                raise
            logger.info("the ratings table is busy; trying the swap again")


def _ensure_months(connection: Connection, first: date, ahead: int) -> list[str]:
    """Each month from `first` to `ahead` months later, and the default partition, created where
    missing; ratings the default partition holds for a month being created move into it in the same
    transaction. Returns the partitions created. Needs a connection in autocommit."""
    existing = partitions(connection)
    covered_until = max((p.upper for p in existing if p.lower is None), default=None)
    have = {p.name for p in existing}
    created = []
    has_default = bool(connection.scalar(text("SELECT to_regclass(:name) IS NOT NULL"), {"name": DEFAULT}))
    for offset in range(ahead + 1):
        month = add_months(first, offset)
        name = month_name(month)
        if name in have or (covered_until is not None and month < covered_until):
            continue
        _create_month(connection, month, has_default)
        created.append(name)
    if not has_default:
        connection.execute(text(f"CREATE TABLE IF NOT EXISTS {DEFAULT} PARTITION OF {TABLE} DEFAULT"))
        created.append(DEFAULT)
    return created


def _create_month(connection: Connection, month: date, has_default: bool) -> None:
    name, lower, upper = month_name(month), _bound(month), _bound(add_months(month, 1))
    within = f"created_at >= {lower} AND created_at < {upper}"
    connection.execute(text("BEGIN"))
    try:
        connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
        strays = has_default and connection.scalar(
            text(f"SELECT EXISTS (SELECT 1 FROM {DEFAULT} WHERE {within})")
        )
        if strays:
            connection.execute(text("SET LOCAL statement_timeout = 0"))
            # The month's ratings wait in the default partition: moved into a table that then becomes the
            # month, all in this transaction, so no reader sees them twice or not at all.
            connection.execute(text(f"CREATE TABLE {name} (LIKE {TABLE} INCLUDING DEFAULTS)"))
            connection.execute(
                text(
                    f"WITH moved AS (DELETE FROM {DEFAULT} WHERE {within} "
                    f"RETURNING *) INSERT INTO {name} SELECT * FROM moved"
                )
            )
            connection.execute(
                text(f"ALTER TABLE {TABLE} ATTACH PARTITION {name} FOR VALUES FROM ({lower}) TO ({upper})")
            )
        else:
            connection.execute(
                text(f"CREATE TABLE {name} PARTITION OF {TABLE} FOR VALUES FROM ({lower}) TO ({upper})")
            )
        connection.execute(text("COMMIT"))
    except Exception:
        connection.execute(text("ROLLBACK"))
        raise


def ensure_partitions(connection: Connection, now: datetime, *, ahead: int = MONTHS_AHEAD) -> list[str]:
    """The current month, `ahead` more and the default partition, created where missing by one process
    at a time across every node (an advisory lock; a process that does not get it leaves the work to the
    one that has it). Returns the partitions this call created. Needs a connection in autocommit."""
    if not is_partitioned(connection):
        return []
    with _maintaining(connection) as mine:
        return _ensure_months(connection, month_start(now), ahead) if mine else []


class _maintaining:
    """Holds the advisory session lock while the partitions are changed (each change is its own short
    transaction, so the lock is held for the session, not one transaction)."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._mine = False

    def __enter__(self) -> bool:
        self._mine = bool(
            self._connection.scalar(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
        )
        return self._mine

    def __exit__(self, *exc: object) -> None:
        if self._mine:
            self._connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})


@dataclass(frozen=True)
class Dropped:
    name: str
    ratings: int
    """The ratings the counters counted there (archived ratings are not counted)."""


def drop_expired(connection: Connection, now: datetime) -> list[Dropped]:
    """Drop every ranged partition whose ratings have all outlived their project's retention: each
    project with a rating in it keeps ratings `retention_days` and the partition ends before
    `now - retention_days`. The counters of the partition's days are taken off in the same transaction
    (the day counters deleted, the totals reduced), so every count stays exact. A partition holding a
    rating of a project that keeps ratings forever stays; retention deletes its expired ratings row by
    row as before. One process at a time (the advisory lock); a connection in autocommit."""
    if not is_partitioned(connection):
        return []
    dropped = []
    with _maintaining(connection) as mine:
        if not mine:
            return []
        for partition in partitions(connection):
            if partition.upper > now.date():
                break
            if (count := _drop_if_expired(connection, partition, now)) is not None:
                dropped.append(Dropped(partition.name, count))
    return dropped


def _drop_if_expired(connection: Connection, partition: Partition, now: datetime) -> int | None:
    """The partition dropped with its counters if every project in it is past retention there; how many
    ratings it held, or None when it stays. Looked at without a lock first: a partition that must stay
    (the usual answer) is never locked, so reads of the table are not held up every look."""
    if _kept(connection, partition, now):
        return None
    connection.execute(text("BEGIN"))
    try:
        connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
        # Locked, then judged again: no rating is archived, deleted or added there meanwhile.
        connection.execute(text(f"LOCK TABLE {partition.name} IN ACCESS EXCLUSIVE MODE"))
        if _kept(connection, partition, now):
            connection.execute(text("ROLLBACK"))
            return None
        count = _take_off_counters(connection, _projects_in(connection, partition.name), partition)
        connection.execute(text(f"DROP TABLE {partition.name}"))
        connection.execute(text("COMMIT"))
        return count
    except Exception:
        connection.execute(text("ROLLBACK"))
        raise


def _kept(connection: Connection, partition: Partition, now: datetime) -> bool:
    """Whether a project with a rating in the partition keeps ratings forever, or for longer than the
    time since the partition ended."""
    keeping = connection.scalar(
        text(
            "SELECT count(*) FROM projects WHERE id = ANY(:ids) AND (retention_days IS NULL "
            "OR CAST(:upper AS timestamptz) > CAST(:now AS timestamptz) - retention_days * interval '1 day')"
        ),
        {
            "ids": _projects_in(connection, partition.name),
            "upper": datetime.combine(partition.upper, datetime.min.time(), UTC),
            "now": now,
        },
    )
    return bool(keeping)


def _take_off_counters(connection: Connection, projects: list[UUID], partition: Partition) -> int:
    """The day counters of the partition's days deleted and their sums taken off the totals, in key
    order like every other counter write (totals are shared with today's submissions); returns how many
    ratings they counted (archived ones are not counted)."""
    days = "day < :upper" if partition.lower is None else "day >= :lower AND day < :upper"
    where = f"project_id = ANY(:ids) AND {days}"
    bounds = {"ids": projects, "lower": partition.lower, "upper": partition.upper}
    keys = ", ".join(key_columns(_TOTALS))
    sums = connection.execute(
        text(f"SELECT {keys}, sum(count) FROM rating_counters WHERE {where} GROUP BY {keys}"), bounds
    )
    deltas = {tuple(row[:-1]): -int(row[-1]) for row in sums}
    connection.execute(text(f"DELETE FROM rating_counters WHERE {where}"), bounds)
    columns = upsert_columns(_TOTALS)
    rows = [dict(zip(columns, row, strict=True)) for row in counter_rows(deltas)]
    if rows:
        connection.execute(upsert_statement(_TOTALS), rows)
    return -sum(delta for key, delta in deltas.items() if key[2] == ALL_PATHS)


def _projects_in(connection: Connection, name: str) -> list[UUID]:
    """The projects with a rating in the partition, by a skip scan of its (project_id, ...) index: one
    index probe per project, not a read of every rating."""
    return list(
        connection.scalars(
            text(
                f"WITH RECURSIVE p AS ((SELECT project_id AS id FROM {name} ORDER BY project_id LIMIT 1) "
                f"UNION ALL SELECT (SELECT project_id FROM {name} WHERE project_id > p.id "
                "ORDER BY project_id LIMIT 1) FROM p "
                "WHERE p.id IS NOT NULL) SELECT id FROM p WHERE id IS NOT NULL"
            )
        )
    )


async def create_ahead(engine: AsyncEngine, now: datetime, *, ahead: int = MONTHS_AHEAD) -> list[str]:
    """The periodic job's work: the current month and `ahead` more created where missing; nothing on
    SQLite or on a table not partitioned yet."""
    return await _in_autocommit(engine, lambda sync: ensure_partitions(sync, now, ahead=ahead), [])


async def drop_expired_months(engine: AsyncEngine, now: datetime) -> list[Dropped]:
    """Retention's first step: whole months past every project's retention dropped (drop_expired)."""
    return await _in_autocommit(engine, lambda sync: drop_expired(sync, now), [])


async def _in_autocommit(engine: AsyncEngine, work: Callable[[Connection], T], on_sqlite: T) -> T:
    if engine.dialect.name != "postgresql":
        return on_sqlite
    async with engine.connect() as connection:
        autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
        return await autocommit.run_sync(work)
