"""`make bench BENCH_ONLY=capacity`: the figures of the capacity model in docs/scale.md.

- ratings per second per application core: one worker under wrk, its CPU time read from /proc;
- ratings per second per PostgreSQL core: the CPU time of the database's backends (the application's
  connections, found in pg_stat_activity) over the same run, with the group commit's mean batch size
  read from the worker's /metrics (hearken_group_commit_batch_size);
- rows and bytes per rating with their indexes: a project's ratings seeded as the widgets send them,
  vacuumed, and the sizes of `ratings` (every partition), its indexes and the counters divided by them.

CPU is read per process, so the load generator and other work on the machine are not counted; the
WAL writer and checkpointer (shared by every database on the server) are not either.
"""

from __future__ import annotations

import asyncio
import os
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from app.config import Settings
from app.db.config import build_db_config
from tests import databases
from tests.bench import seed
from tests.bench.load import wrk
from tests.bench.servers import Server, _children, start

Record = Callable[..., None]
CONNECTIONS = (32, 256)
"""Few waiting requests (small batches) and many (large batches): the database's cost per rating
falls as its batches grow."""
SIZED = int(os.environ.get("BENCH_CAPACITY_ROWS", "100000"))
"""Ratings seeded to measure bytes per rating."""
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the processes (those gone meanwhile count nothing)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def backends(url: str) -> list[int]:
    """The database's server processes serving the application (not this one)."""
    with psycopg.connect(databases._libpq(url)) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in rows]


def batches(server: Server) -> tuple[float, float]:
    """(batches, ratings) the worker's group commit has written so far."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=5) as answer:
        text = answer.read().decode()

    def value(name: str) -> float:
        found = re.search(rf"^{name} ([0-9.e+]+)$", text, re.MULTILINE)
        return float(found[1]) if found else 0.0

    return value("hearken_group_commit_batch_size_count"), value("hearken_group_commit_batch_size_sum")


def throughput(
    record: Record, url: str, project_key: str, env: dict[str, str], script: str, seconds: int
) -> dict[str, Any]:
    server = start("app.main:create_app", workers=1, env=env)
    try:
        worker = (_children(server.process.pid) or [server.process.pid])[0]
        submit = server.url + "/api/v1/rating/submit"
        wrk(submit, script=script, connections=CONNECTIONS[0], seconds=2)  # warm-up: the pool opens
        figures = {}
        for connections in CONNECTIONS:
            database = backends(url)
            app_before, db_before = cpu_seconds([worker]), cpu_seconds(database)
            batches_before, ratings_before = batches(server)
            result = wrk(submit, script=script, connections=connections, seconds=seconds)
            app_cpu, db_cpu = cpu_seconds([worker]) - app_before, cpu_seconds(database) - db_before
            batches_after, ratings_after = batches(server)
            batch_count, ratings = batches_after - batches_before, ratings_after - ratings_before
            at = {
                "rps": result.rps,
                "non_2xx": result.non_2xx,
                "app_cpu_share": app_cpu / seconds,
                "db_cpu_share": db_cpu / seconds,
                "ratings_per_app_core_second": ratings / app_cpu,
                "ratings_per_db_core_second": ratings / db_cpu,
                "mean_batch": ratings / batch_count,
            }
            figures[f"c{connections}"] = at
            record(
                f"1 worker, c={connections}",
                f"{result.rps:,.0f} ratings/s; app {at['app_cpu_share']:.0%} of a core, PostgreSQL "
                f"{at['db_cpu_share']:.0%}; mean batch {at['mean_batch']:.1f} ratings",
            )
            record(
                f"  per core, c={connections}",
                f"{at['ratings_per_app_core_second']:,.0f} ratings/s per app core, "
                f"{at['ratings_per_db_core_second']:,.0f} per PostgreSQL core",
            )
        return figures
    finally:
        server.stop()


SIZES = """
SELECT
  (SELECT count(*) FROM ratings),
  coalesce((SELECT sum(pg_table_size(relid)) FROM pg_partition_tree('ratings') WHERE isleaf),
    pg_table_size('ratings')),
  coalesce((SELECT sum(pg_indexes_size(relid)) FROM pg_partition_tree('ratings') WHERE isleaf),
    pg_indexes_size('ratings')),
  (SELECT count(*) FROM rating_counters), pg_total_relation_size('rating_counters'),
  (SELECT count(*) FROM rating_totals), pg_total_relation_size('rating_totals')
"""


def sizes(record: Record, url: str, project_id: Any) -> dict[str, Any]:
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    asyncio.run(seed.ratings(config.create_session_maker(), project_id, SIZED))
    asyncio.run(config.get_engine().dispose())
    with psycopg.connect(databases._libpq(url), autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
        ratings, table, indexes, counters, counters_bytes, totals, totals_bytes = (
            int(value) for value in connection.execute(SIZES).fetchone() or ()
        )
    figures = {
        "ratings": ratings,
        "table_bytes_per_rating": table / ratings,
        "index_bytes_per_rating": indexes / ratings,
        "counter_rows": counters,
        "counter_bytes": counters_bytes,
        "total_rows": totals,
        "total_bytes": totals_bytes,
    }
    record(
        f"bytes per rating ({ratings:,} ratings over 365 days, 200 paths)",
        f"{(table + indexes) / ratings:,.0f} B: row {table / ratings:,.0f} B "
        f"+ indexes {indexes / ratings:,.0f} B",
    )
    record(
        "counters beside them",
        f"{counters:,} day counter rows ({counters_bytes / 2**20:,.1f} MiB), "
        f"{totals:,} totals ({totals_bytes / 2**20:,.1f} MiB)",
    )
    return figures


def capacity_part(
    record: Record, app_env: Callable[[str, bool], dict[str, str]], script: Callable[[str], str], seconds: int
) -> dict[str, Any]:
    url = databases.postgres_create()
    try:
        config = build_db_config(Settings(database_url=url, secret_key="bench"))
        _, (small, large, _) = asyncio.run(seed.tenant(config.create_session_maker()))
        asyncio.run(config.get_engine().dispose())
        seed.partition_past_year(url)
        return {
            "ingest": throughput(
                record, url, str(small.key), app_env(url, True), script(str(small.key)), seconds
            ),
            "storage": sizes(record, url, large.id),
        }
    finally:
        databases.postgres_drop(url)
