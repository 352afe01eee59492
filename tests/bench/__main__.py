"""`make bench`: ingest, statistics, lists and memory, measured against a bare endpoint in the same run.

Prints one table and writes bench/results.json. Needs wrk (Debian package), PostgreSQL and Redis on
127.0.0.1 for the PostgreSQL part; the SQLite part needs nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import Rating
from app.db.transactions import unit_of_work
from tests import databases
from tests.bench import seed
from tests.bench.alerts import alerts_part
from tests.bench.backfill import backfill_part
from tests.bench.capacity import capacity_part
from tests.bench.exports import describe, measure_export
from tests.bench.ideas import ideas_part
from tests.bench.images import images_part
from tests.bench.insights import insights_part
from tests.bench.load import LoadResult, get_script, post_script, wrk
from tests.bench.mcp_calls import mcp_part
from tests.bench.servers import ROOT, Server, start
from tests.bench.surveys import surveys_part
from tests.bench.webhooks import webhooks_part
from tests.bench.widget_sizes import widget_sizes_part
from tests.services import REDIS_URL, reachable

SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
LARGE = int(os.environ.get("BENCH_LARGE", "1000000"))
SMALL = 1000
INGEST_WORKERS = (1, 2)
READ_WORKERS = 2
"""Ingest is measured with one worker and with two; statistics, lists and memory with two."""
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
ROUND_SECONDS = max(2, SECONDS // 2)
"""Ingest throughput alternates the bare endpoint and the application over ROUNDS rounds."""
ONLY_INGEST = os.environ.get("BENCH_ONLY") == "ingest"
"""BENCH_ONLY=ingest measures rating submits alone (both databases): no statistics, lists or memory."""
ONLY_POSTGRES = os.environ.get("BENCH_ONLY") == "postgres"
"""BENCH_ONLY=postgres measures the PostgreSQL part alone: ingest, statistics, lists and exports (the
before/after of a change to the ratings' storage)."""
ONLY_CAPACITY = os.environ.get("BENCH_ONLY") == "capacity"
"""BENCH_ONLY=capacity prints the figures of the capacity model (docs/scale.md): ratings per second per
application core and per PostgreSQL core, group commit batch sizes, bytes per rating."""
ONLY_WEBHOOKS = os.environ.get("BENCH_ONLY") == "webhooks"
"""BENCH_ONLY=webhooks measures feedback submits with and without a webhook endpoint alone."""
ONLY_MCP = os.environ.get("BENCH_ONLY") == "mcp"
"""BENCH_ONLY=mcp measures an MCP tool call against the equivalent REST request alone."""
ONLY_EXPORTS = os.environ.get("BENCH_ONLY") == "exports"
"""BENCH_ONLY=exports measures the exports of LARGE feedback items and LARGE ratings alone (both
databases)."""
ONLY_BACKFILL = os.environ.get("BENCH_ONLY") == "backfill"
"""BENCH_ONLY=backfill measures rating submits idle and while a backfill embeds, alone."""
ONLY_IMAGES = os.environ.get("BENCH_ONLY") == "images"
"""BENCH_ONLY=images measures a feedback submit with a 1 MB image against one without, alone."""
ONLY_ALERTS = os.environ.get("BENCH_ONLY") == "alerts"
"""BENCH_ONLY=alerts runs the alert checks over a synthetic year alone (tests/bench/alerts.py)."""
ONLY_INSIGHTS = os.environ.get("BENCH_ONLY") == "insights"
"""BENCH_ONLY=insights measures insights alone: quality on the labelled set, throughput, memory, latency
at 100,000 items and theme recomputation (both databases)."""
ONLY_WIDGETS = os.environ.get("BENCH_ONLY") == "widgets"
"""BENCH_ONLY=widgets prints the widget files' gzipped sizes (the survey loader and renderer among them)
against their budgets alone."""
ONLY_IDEAS = os.environ.get("BENCH_ONLY") == "ideas"
"""BENCH_ONLY=ideas measures the ideas portal alone on PostgreSQL: its list with 10,000 ideas and 1,000,000
votes, vote submits beside rating submits, and the page's weight (tests/bench/ideas.py)."""
ONLY_SURVEYS = os.environ.get("BENCH_ONLY") == "surveys"
"""BENCH_ONLY=surveys measures survey response submits beside rating submits (both databases), the active
list and one survey's results at 10,000 and 100,000 responses alone (tests/bench/surveys.py)."""
BARE_KEY = "3c447b47-239b-4ee5-9777-53bbe3356035"
THROUGHPUT_CONNECTIONS = (32, 64, 128, 256)
"""A server's throughput is the highest rate it sustains at any of these. The bare endpoint reaches its
own by c=32-64 (more connections only queue). Group commit keeps gaining up to c=128-256: its batches
grow with the requests waiting, so the cost of a commit and a budget call is shared by more ratings.
Each concurrency's own ratio is recorded too: at c=32 each of two workers holds only 16 requests, and
its batches wait on the commit's flush with CPU left idle."""
REFUSAL_CONNECTIONS = 64
LATENCY_CONNECTIONS = 8
REFUSED_ORIGIN = "https://elsewhere.example"
"""An origin no seeded project allows."""
RESULTS = ROOT / "bench" / "results.json"

rows: list[tuple[str, str, str]] = []
results: dict[str, Any] = {"settings": {"seconds": SECONDS, "large": LARGE, "cores": os.cpu_count()}}


def record(name: str, value: str, target: str = "") -> None:
    rows.append((name, value, target))
    print(f"  {name}: {value} {target}", flush=True)


def rating_script(project_key: str, origin: str = seed.ORIGIN) -> str:
    body = (
        f'\'{{"project_key":"{project_key}","value":\' .. ((n % 3 == 0) and "false" or "true") '
        ".. ',\"path\":\"/docs/page-' .. (n % 50) .. '\"}'"
    )
    headers = {"Content-Type": "application/json", "Origin": origin}
    return post_script("/api/v1/rating/submit", body, headers)


def app_env(database_url: str, redis: bool) -> dict[str, str]:
    env = {
        "HEARKEN_DATABASE_URL": database_url,
        "HEARKEN_SECRET_KEY": "bench-secret",
        # every check stays on; the budgets are just larger than the load
        "HEARKEN_RATE_LIMIT_CLIENT": "1000000000/60",
        "HEARKEN_RATE_LIMIT_PROJECT": "1000000000/60",
    }
    if redis:
        env["HEARKEN_REDIS_URL"] = REDIS_URL
    return env


def measure_ingest(
    bare_server: Server, server: Server, project_key: str, label: str, latency_target: str = ""
) -> tuple[dict[int, list[LoadResult]], dict[int, list[LoadResult]], LoadResult]:
    """Throughput of the bare endpoint and of rating submit at each of THROUGHPUT_CONNECTIONS,
    alternated over ROUNDS rounds with both servers up, then the submit's latency. One pair of runs
    varies by about 20 % on a shared machine; the ratio of runs taken side by side, and its median over
    rounds, is steady."""
    yardstick = (bare_server.url + "/api/v1/rating/submit", rating_script(BARE_KEY))
    submit = (server.url + "/api/v1/rating/submit", rating_script(project_key))
    for url, script in (yardstick, submit):
        wrk(url, script=script, connections=THROUGHPUT_CONNECTIONS[0], seconds=2)  # warm-up
    bare_runs: dict[int, list[LoadResult]] = {c: [] for c in THROUGHPUT_CONNECTIONS}
    runs: dict[int, list[LoadResult]] = {c: [] for c in THROUGHPUT_CONNECTIONS}
    for round_ in range(ROUNDS):
        for connections in THROUGHPUT_CONNECTIONS:
            order = (yardstick, submit) if round_ % 2 == 0 else (submit, yardstick)
            measured = {
                url: wrk(url, script=script, connections=connections, seconds=ROUND_SECONDS)
                for url, script in order
            }
            bare_runs[connections].append(measured[yardstick[0]])
            runs[connections].append(measured[submit[0]])
    latency = wrk(submit[0], script=submit[1], connections=LATENCY_CONNECTIONS, seconds=SECONDS)
    for connections in THROUGHPUT_CONNECTIONS:
        record(
            f"{label} throughput (c={connections}, median of {ROUNDS} rounds)",
            f"{statistics.median(r.rps for r in runs[connections]):,.0f} req/s "
            f"(bare {statistics.median(r.rps for r in bare_runs[connections]):,.0f})",
        )
    record(
        f"{label} latency (c={LATENCY_CONNECTIONS})",
        f"p50 {latency.p50_ms:.2f} ms, p99 {latency.p99_ms:.2f} ms",
        latency_target,
    )
    return bare_runs, runs, latency


def measure_refusals(bare_server: Server, server: Server, project_key: str, workers: int) -> dict[str, Any]:
    """Submissions the gate refuses (403: an origin the project does not allow), alternated with the
    bare endpoint at REFUSAL_CONNECTIONS: a flood is made of refusals, and each must cost no more
    than a stored rating."""
    connections = REFUSAL_CONNECTIONS
    yardstick = (bare_server.url + "/api/v1/rating/submit", rating_script(BARE_KEY))
    refused = (server.url + "/api/v1/rating/submit", rating_script(project_key, REFUSED_ORIGIN))
    bare_runs, runs = [], []
    for round_ in range(ROUNDS):
        order = (yardstick, refused) if round_ % 2 == 0 else (refused, yardstick)
        measured = {
            url: wrk(url, script=script, connections=connections, seconds=ROUND_SECONDS)
            for url, script in order
        }
        bare_runs.append(measured[yardstick[0]])
        runs.append(measured[refused[0]])
    if any(run.non_2xx != run.requests for run in runs):
        raise SystemExit("refused submissions were not all refused")
    ratios = [run.rps / bare.rps for bare, run in zip(bare_runs, runs, strict=True)]
    rps = statistics.median(run.rps for run in runs)
    record(
        f"refused submit (403), {workers} worker(s), c={connections}",
        f"{rps:,.0f} req/s = {statistics.median(ratios):.0%} of bare "
        f"(rounds: {', '.join(f'{r:.0%}' for r in ratios)})",
    )
    return {"rps": rps, "ratio": statistics.median(ratios), "round_ratios": [round(r, 3) for r in ratios]}


def ingest_figures(
    bare_runs: dict[int, list[LoadResult]], runs: dict[int, list[LoadResult]], latency: LoadResult
) -> dict[str, Any]:
    by_connections: dict[str, Any] = {}
    for connections in THROUGHPUT_CONNECTIONS:
        pairs = zip(bare_runs[connections], runs[connections], strict=True)
        ratios = [run.rps / bare.rps for bare, run in pairs]
        by_connections[f"c{connections}"] = {
            "bare_rps": statistics.median(r.rps for r in bare_runs[connections]),
            "rps": statistics.median(r.rps for r in runs[connections]),
            "ratio": statistics.median(ratios),
            "round_ratios": [round(ratio, 3) for ratio in ratios],
        }
    # The peak of each server, round by round: the rounds alternate the two servers, so a round's two
    # peaks were taken side by side, in the same phase of the machine.
    rounds = range(len(runs[THROUGHPUT_CONNECTIONS[0]]))
    bare_peaks = [max(bare_runs[c][r].rps for c in THROUGHPUT_CONNECTIONS) for r in rounds]
    peaks = [max(runs[c][r].rps for c in THROUGHPUT_CONNECTIONS) for r in rounds]
    peak_ratios = [peak / bare_peak for bare_peak, peak in zip(bare_peaks, peaks, strict=True)]
    every_run = [run for connections in THROUGHPUT_CONNECTIONS for run in runs[connections]]
    return {
        "bare_rps": statistics.median(bare_peaks),
        "rps": statistics.median(peaks),
        "ratio": statistics.median(peak_ratios),
        "round_ratios": [round(ratio, 3) for ratio in peak_ratios],
        "by_connections": by_connections,
        "p50_ms": latency.p50_ms,
        "p99_ms": latency.p99_ms,
        "acknowledged": sum(r.ok for r in every_run) + latency.ok,
        "non_2xx": sum(r.non_2xx for r in every_run) + latency.non_2xx,
    }


async def stored_ratings(session_maker: async_sessionmaker[AsyncSession], project_id: Any) -> int:
    async with unit_of_work(session_maker) as session:
        return int(
            await session.scalar(
                select(func.count()).select_from(Rating).where(Rating.project_id == project_id)
            )
            or 0
        )


def p50(server: Server, path: str, token: str, connections: int = 1) -> float:
    """The median latency of one client's requests (connections=1), or under concurrent clients."""
    result = wrk(
        server.url + path,
        script=get_script(path, {"X-API-Key": token}),
        connections=connections,
        seconds=max(3, SECONDS // 2),
    )
    if result.non_2xx or result.errors:
        raise SystemExit(f"GET {path} answered {result.non_2xx} non-2xx responses")
    return result.p50_ms


def bare(workers: int) -> Server:
    return start(
        "tests.bench.bare_app:create_app", workers=workers, env={}, ready_path="/schema/openapi.json"
    )


def ingest(
    workers: int, url: str, session_maker: async_sessionmaker[AsyncSession], project: Any
) -> dict[str, Any]:
    """Rating submits against the bare endpoint on the same server settings, and what was stored."""
    bare_server = bare(workers)
    server = start("app.main:create_app", workers=workers, env=app_env(url, redis=True))
    try:
        before = asyncio.run(stored_ratings(session_maker, project.id))
        figures = ingest_figures(
            *measure_ingest(
                bare_server,
                server,
                str(project.key),
                f"rating submit, {workers} worker(s)",
                "(target p99 <= 10 ms)",
            )
        )
        stored = asyncio.run(stored_ratings(session_maker, project.id)) - before
        refusals = measure_refusals(bare_server, server, str(project.key), workers)
    finally:
        server.stop()
        bare_server.stop()
    record(
        f"ingest / bare, {workers} worker(s), throughput (each server's peak)",
        f"{figures['rps']:,.0f} / {figures['bare_rps']:,.0f} req/s = {figures['ratio']:.0%} "
        f"(rounds: {', '.join(f'{r:.0%}' for r in figures['round_ratios'])})",
        "(target >= 40%)",
    )
    for connections, at in figures["by_connections"].items():
        record(
            f"ingest / bare, {workers} worker(s), {connections.replace('c', 'c=')}",
            f"{at['ratio']:.0%} (rounds: {', '.join(f'{r:.0%}' for r in at['round_ratios'])})",
        )
    record(
        f"acknowledged vs stored, {workers} worker(s) (measured runs + warm-up)",
        f"{figures['acknowledged']:,} acknowledged, {stored:,} stored",
        "(stored >= acknowledged)",
    )
    return {**figures, "stored": stored, "refused": refusals}


def exports(label: str, server: Server, token: str, paths: dict[str, str]) -> dict[str, Any]:
    """Each export downloaded once, one after the other, with the figures of each."""
    figures = {}
    for name, path in paths.items():
        figures[name] = measure_export(server, path, token)
        record(f"{label} export {name}", describe(figures[name]), "(first byte <= 1 s, RSS <= 250 MB)")
    return figures


def feedback_exports(inbox: Any) -> dict[str, str]:
    base = f"/api/v1/projects/{inbox.id}/feedback/export"
    return {f"{LARGE:,} feedback CSV": base, f"{LARGE:,} feedback NDJSON": base + "?format=ndjson"}


def ratings_exports(project: Any) -> dict[str, str]:
    base = f"/api/v1/projects/{project.id}/ratings/export"
    return {f"{LARGE:,} ratings CSV": base, f"{LARGE:,} ratings NDJSON": base + "?format=ndjson"}


def exports_only(url: str, redis: bool) -> dict[str, Any]:
    """BENCH_ONLY=exports: LARGE feedback items and LARGE ratings seeded, then exported as CSV and NDJSON."""
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    session_maker = config.create_session_maker()
    try:
        token, (_, large, inbox) = asyncio.run(seed.tenant(session_maker))
        started = time.monotonic()
        asyncio.run(seed.feedback(session_maker, inbox.id, LARGE))
        record(f"seeded {LARGE:,} feedback items", f"{time.monotonic() - started:.0f} s")
        started = time.monotonic()
        asyncio.run(seed.ratings(session_maker, large.id, LARGE))
        record(f"seeded {LARGE:,} ratings", f"{time.monotonic() - started:.0f} s")
        server = start("app.main:create_app", workers=READ_WORKERS, env=app_env(url, redis=redis))
        try:
            paths = {**feedback_exports(inbox), **ratings_exports(large)}
            return exports("PostgreSQL" if redis else "SQLite", server, token, paths)
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())


def postgres_part() -> None:
    if not (reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379)):
        print("PostgreSQL or Redis is not reachable on 127.0.0.1: skipping the PostgreSQL part", flush=True)
        return
    print("PostgreSQL (Redis for shared limits and cache generation)", flush=True)
    url = databases.postgres_create()
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    session_maker = config.create_session_maker()
    try:
        token, (small, large, inbox) = asyncio.run(seed.tenant(session_maker))
        seed.partition_past_year(url)
        results["postgres_ingest"] = {
            f"{workers}_workers": ingest(workers, url, session_maker, small) for workers in INGEST_WORKERS
        }
        if ONLY_INGEST:
            return
        server = start("app.main:create_app", workers=READ_WORKERS, env=app_env(url, redis=True))
        try:
            asyncio.run(seed.ratings(session_maker, small.id, SMALL))
            started = time.monotonic()
            asyncio.run(seed.ratings(session_maker, large.id, LARGE))
            record(f"seeded {LARGE:,} ratings", f"{time.monotonic() - started:.0f} s")
            stats: dict[str, Any] = {}
            for name, path in {
                "typed helpful": "/ratings/stats/typed?type=helpful",
                "typed star": "/ratings/stats/typed?type=star",
                "typed nps": "/ratings/stats/typed?type=nps",
                "legacy": "/ratings/stats",
                "series (90 days)": "/ratings/stats/series?type=helpful&interval=day",
                "one path": "/ratings/stats/typed?type=helpful&path=/docs/page-7",
                "versions": "/ratings/stats/versions?type=helpful",
                "versions of one path": "/ratings/stats/versions?type=helpful&path=/docs/page-7",
            }.items():
                little = p50(server, f"/api/v1/projects/{small.id}{path}", token)
                big = p50(server, f"/api/v1/projects/{large.id}{path}", token)
                stats[name] = {"p50_small_ms": little, "p50_large_ms": big, "ratio": big / little}
                record(
                    f"stats {name}: p50 at {SMALL:,} / {LARGE:,}",
                    f"{little:.2f} / {big:.2f} ms ({big / little:.2f}x)",
                    "(target <= 1.5x)",
                )
            results["postgres_stats"] = stats

            started = time.monotonic()
            asyncio.run(seed.feedback(session_maker, inbox.id, LARGE))
            record(f"seeded {LARGE:,} feedback items", f"{time.monotonic() - started:.0f} s")
            databases.analyze(url)  # what autovacuum does soon after a bulk load
            lists: dict[str, dict[str, float]] = {}
            for name, path in {
                "ratings page 1": f"/api/v1/projects/{large.id}/ratings?page=1&limit=20",
                "ratings page 50": f"/api/v1/projects/{large.id}/ratings?page=50&limit=20",
                "typed star page 50": f"/api/v1/projects/{large.id}/ratings/typed?type=star&page=50&limit=20",
                "feedback page 1": f"/api/v1/projects/{inbox.id}/feedback?page=1&limit=20",
                "feedback page 50": f"/api/v1/projects/{inbox.id}/feedback?page=50&limit=20",
            }.items():
                alone, loaded = p50(server, path, token), p50(server, path, token, connections=4)
                lists[name] = {"p50_ms": alone, "p50_ms_4_clients": loaded}
                record(
                    f"list {name} at {LARGE:,} rows: p50 (1 client / 4 clients)",
                    f"{alone:.2f} / {loaded:.2f} ms",
                    "(target <= 20 ms)",
                )
            results["postgres_lists"] = lists
            results["postgres_exports"] = exports(
                "PostgreSQL",
                server,
                token,
                {
                    **feedback_exports(inbox),
                    **ratings_exports(large),
                },
            )

            rss = server.worker_rss_mb()
            results["postgres_worker_rss_mb"] = rss
            record(
                "worker resident size after the run",
                ", ".join(f"{mb:.0f} MB" for mb in rss),
                "(target <= 250 MB)",
            )
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)


def sqlite_part() -> None:
    print("SQLite default (1 worker, in-process stores)", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        databases.migrate(url)
        config = build_db_config(Settings(database_url=url, secret_key="bench"))
        session_maker = config.create_session_maker()
        _, (small, _, _) = asyncio.run(seed.tenant(session_maker))
        bare_server = bare(1)
        server = start("app.main:create_app", workers=1, env=app_env(url, redis=False))
        try:
            figures = ingest_figures(
                *measure_ingest(bare_server, server, str(small.key), "SQLite rating submit, 1 worker")
            )
            stored = asyncio.run(stored_ratings(session_maker, small.id))
            record(
                "SQLite ingest, 1 worker",
                f"{figures['rps']:,.0f} req/s = {figures['ratio']:.0%} of bare",
                "(target >= 3,000 req/s)",
            )
            record(
                "SQLite acknowledged vs stored",
                f"{figures['acknowledged']:,} acknowledged, {stored:,} stored",
                "(stored >= acknowledged)",
            )
            results["sqlite_ingest"] = {**figures, "stored": stored, "rss_mb": server.worker_rss_mb()}
        finally:
            server.stop()
            bare_server.stop()
            asyncio.run(config.get_engine().dispose())


def insights_only() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        sqlite_url = f"sqlite+aiosqlite:///{Path(folder) / 'insights.db'}"
        databases.migrate(sqlite_url)
        urls = [(sqlite_url, "SQLite")]
        postgres_url = databases.postgres_create() if reachable("127.0.0.1", 5432) else None
        if postgres_url:
            urls.insert(0, (postgres_url, "PostgreSQL"))
        try:
            return insights_part(record, urls)
        finally:
            if postgres_url:
                databases.postgres_drop(postgres_url)


def main() -> None:
    started = time.monotonic()
    if ONLY_ALERTS:
        results["alerts"] = alerts_part(record)
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "alerts.json").write_text(json.dumps(results, indent=2))
        return
    if ONLY_IDEAS:
        results["ideas"] = ideas_part(record, app_env, rating_script, ROUNDS, ROUND_SECONDS)
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "ideas.json").write_text(json.dumps(results, indent=2))
        return
    if ONLY_SURVEYS:
        results["surveys"] = surveys_part(record, app_env, rating_script, ROUNDS, ROUND_SECONDS)
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "surveys.json").write_text(json.dumps(results, indent=2))
        return
    results["widgets"] = widget_sizes_part(record)
    if ONLY_WIDGETS:
        return
    if ONLY_INSIGHTS:
        results["insights"] = insights_only()
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "insights.json").write_text(json.dumps(results, indent=2))
        return
    if ONLY_EXPORTS:
        if reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379):
            url = databases.postgres_create()
            try:
                results["postgres_exports"] = exports_only(url, redis=True)
            finally:
                databases.postgres_drop(url)
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            databases.migrate(url)
            results["sqlite_exports"] = exports_only(url, redis=False)
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        return
    if ONLY_CAPACITY:
        results["capacity"] = capacity_part(record, app_env, rating_script, SECONDS)
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "capacity.json").write_text(json.dumps(results, indent=2))
        return
    if ONLY_MCP:
        results["mcp"] = mcp_part(record, app_env, ROUNDS, ROUND_SECONDS)
        return
    if ONLY_IMAGES:
        results["images"] = images_part(record, app_env)
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        return
    if ONLY_BACKFILL:
        results["backfill"] = backfill_part(record, app_env, rating_script, ROUNDS, ROUND_SECONDS)
        return
    if not ONLY_WEBHOOKS:
        postgres_part()
    if ONLY_POSTGRES:
        print("\n".join(f"  {name}: {value} {target}" for name, value, target in rows))
        RESULTS.parent.mkdir(exist_ok=True)
        (RESULTS.parent / "postgres.json").write_text(json.dumps(results, indent=2))
        return
    if not ONLY_INGEST and reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379):
        results["webhooks"] = webhooks_part(record, app_env, ROUNDS, ROUND_SECONDS)
        if not ONLY_WEBHOOKS:
            results["images"] = images_part(record, app_env)
    if not ONLY_WEBHOOKS:
        sqlite_part()
    if not ONLY_INGEST and not ONLY_WEBHOOKS:
        results["mcp"] = mcp_part(record, app_env, ROUNDS, ROUND_SECONDS)
        results["backfill"] = backfill_part(record, app_env, rating_script, ROUNDS, ROUND_SECONDS)
        results["insights"] = insights_only()
        results["alerts"] = alerts_part(record)
    width = max(len(name) for name, _, _ in rows)
    print("\nHearken benchmark (" + f"{os.cpu_count()} cores, load generator on the same machine)")
    for name, value, target in rows:
        print(f"  {name.ljust(width)}  {value}  {target}")
    RESULTS.parent.mkdir(exist_ok=True)
    results["seconds_total"] = round(time.monotonic() - started)
    RESULTS.write_text(json.dumps(results, indent=2))
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
