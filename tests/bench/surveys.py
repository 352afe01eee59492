"""Surveys under load: response submits beside rating submits, the widget loader's active list, and one
survey's results at 10,000 and 100,000 responses.

Submits: an active survey's completed answer set (nps, rating, choice and boolean answers; the optional
open-text question left out, so no embedding runs beside the load) and rating submits go to one server,
alternated over rounds at CONNECTIONS, on SQLite (1 worker) and on PostgreSQL (2 workers, Redis).
Active list: 50 active surveys in one project, one wrk connection: each worker serves it from memory.
Results: responses seeded in bulk with their counters moved by the application's own counter code
(app/surveys/counters.py), then each results query timed by CALLS sequential calls against the served
application; one figure is checked against a recount of the stored rows.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgspec
from sqlalchemy import func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.config import build_db_config
from app.db.counter_upsert import add_to_counters
from app.db.models import Project, SurveyCounter, SurveyResponse
from app.db.transactions import unit_of_work
from app.surveys.bodies import SurveyCreateBody
from app.surveys.counters import Counted, deltas
from app.surveys.service import Surveys
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests import databases
from tests.bench import seed
from tests.bench.load import LoadResult, get_script, post_script, wrk
from tests.bench.servers import Server, start
from tests.services import reachable

CONNECTIONS = 64
LATENCY_CONNECTIONS = 8
ACTIVE_SURVEYS = 50
RESPONSES = tuple(int(n) for n in os.environ.get("BENCH_SURVEY_RESPONSES", "10000,100000").split(","))
"""The counts one survey's results are measured at, smallest first (fewer for a quick run)."""
CALLS = 20
DAYS = 90
LANGUAGES = ["en", "de", "sv"]
ROLES = ("dev", "ops", "pm", "other")
SEED_BATCH = 5000


def _texts(words: str) -> dict[str, str]:
    return dict.fromkeys(LANGUAGES, words)


QUESTIONS = [
    {"id": "score", "type": "nps", "text": _texts("How likely are you to recommend us?"), "required": True},
    {"id": "ease", "type": "rating", "scale": 5, "text": _texts("How easy was it?"), "required": True},
    {
        "id": "role",
        "type": "single_choice",
        "text": _texts("Your role?"),
        "choices": [{"id": role, "text": _texts(role)} for role in ROLES],
    },
    {"id": "again", "type": "boolean", "text": _texts("Would you come back?")},
    {"id": "why", "type": "open_text", "text": _texts("Why?")},
]


def _survey_body(name: str) -> SurveyCreateBody:
    return msgspec.convert(
        {
            "name": name,
            "status": "active",
            "languages": LANGUAGES,
            "questions": QUESTIONS,
            "trigger": {"pages": ["/docs/**"], "seconds_on_page": 20},
        },
        SurveyCreateBody,
    )


async def _surveys(
    session_maker: async_sessionmaker[AsyncSession], project: Project, count: int
) -> list[Any]:
    async with unit_of_work(session_maker) as session:
        surveys = Surveys(session, operator_scope(project.org_id, "bench"), project)
        made = [await surveys.create(_survey_body(f"Bench survey {n}")) for n in range(count)]
        await session.commit()
        return [survey.id for survey in made]


def _response_script(survey_id: Any, project_key: str) -> str:
    body = (
        f'\'{{"project_key":"{project_key}","language":"de","completed":true,'
        '"path":"/docs/page-\' .. (n % 50) '
        '.. \'","answers":[{"question_id":"score","value":\' .. (n % 11) .. \'},'
        '{"question_id":"ease","value":\' .. (n % 5 + 1) .. \'},'
        '{"question_id":"role","value":"dev"},{"question_id":"again","value":true}]}\''
    )
    headers = {"Content-Type": "application/json", "Origin": seed.ORIGIN}
    return post_script(f"/api/v1/surveys/{survey_id}/responses/submit", body, headers)


async def _count(session_maker: async_sessionmaker[AsyncSession], survey_id: Any) -> int:
    async with unit_of_work(session_maker) as session:
        found = await session.scalar(
            select(func.count()).select_from(SurveyResponse).where(SurveyResponse.survey_id == survey_id)
        )
        return int(found or 0)


def _submits(
    record: Callable[..., None],
    label: str,
    server: Server,
    scripts: dict[str, tuple[str, str]],
    rounds: int,
    seconds: int,
) -> dict[str, Any]:
    """Rating and survey submits alternated round by round at CONNECTIONS, then each one's latency."""
    for url, script in scripts.values():
        wrk(url, script=script, connections=CONNECTIONS, seconds=2)  # warm-up
    runs: dict[str, list[LoadResult]] = {name: [] for name in scripts}
    for round_ in range(rounds):
        order = list(scripts) if round_ % 2 == 0 else list(reversed(scripts))
        for name in order:
            url, script = scripts[name]
            result = wrk(url, script=script, connections=CONNECTIONS, seconds=seconds)
            if result.non_2xx:
                raise SystemExit(f"{label} {name} submit failed: {result}")
            runs[name].append(result)
    latency = {
        name: wrk(url, script=script, connections=LATENCY_CONNECTIONS, seconds=seconds)
        for name, (url, script) in scripts.items()
    }
    ratios = [s.rps / r.rps for r, s in zip(runs["rating"], runs["survey"], strict=True)]
    figures: dict[str, Any] = {
        name: {
            "rps": statistics.median(run.rps for run in runs[name]),
            "p99_ms_at_c64": statistics.median(run.p99_ms for run in runs[name]),
            "p50_ms": latency[name].p50_ms,
            "p99_ms": latency[name].p99_ms,
            "rps_at_c8": latency[name].rps,
            "acknowledged": sum(run.ok for run in runs[name]) + latency[name].ok,
            "socket_errors": sum(run.errors for run in runs[name]) + latency[name].errors,
        }
        for name in scripts
    }
    figures["ratio"] = statistics.median(ratios)
    figures["round_ratios"] = [round(r, 3) for r in ratios]
    record(
        f"{label} rating / survey submit (c={CONNECTIONS}, median of {rounds} rounds)",
        f"{figures['rating']['rps']:,.0f} / {figures['survey']['rps']:,.0f} req/s, "
        f"survey = {figures['ratio']:.0%} of rating (rounds: {', '.join(f'{r:.0%}' for r in ratios)})",
        "(aim >= 80%)",
    )
    record(
        f"{label} rating / survey submit (c={LATENCY_CONNECTIONS})",
        f"{figures['rating']['rps_at_c8']:,.0f} / {figures['survey']['rps_at_c8']:,.0f} req/s, "
        f"survey = {figures['survey']['rps_at_c8'] / figures['rating']['rps_at_c8']:.0%} of rating",
    )
    for name in scripts:
        record(
            f"{label} {name} submit latency (c={LATENCY_CONNECTIONS} / c={CONNECTIONS})",
            f"p50 {figures[name]['p50_ms']:.2f} ms, p99 {figures[name]['p99_ms']:.2f} ms / "
            f"p99 {figures[name]['p99_ms_at_c64']:.2f} ms; "
            f"{figures[name]['socket_errors']} socket errors (wrk's 2 s timeout)",
        )
    return figures


def _active_list(
    record: Callable[..., None], server: Server, project_key: str, seconds: int
) -> dict[str, Any]:
    path = f"/api/v1/surveys/active?project_key={project_key}"
    request = urllib.request.Request(server.url + path, headers={"Origin": seed.ORIGIN})
    with urllib.request.urlopen(request, timeout=5) as answer:
        listed = len(json.loads(answer.read())["surveys"])
    if listed != ACTIVE_SURVEYS:
        raise SystemExit(f"the active list holds {listed} surveys, not {ACTIVE_SURVEYS}")
    script = get_script(path, {"Origin": seed.ORIGIN})
    wrk(server.url + path, script=script, connections=1, seconds=1)  # each worker's first load
    result = wrk(server.url + path, script=script, connections=1, seconds=seconds)
    if result.non_2xx or result.errors:
        raise SystemExit(f"GET {path} failed: {result}")
    record(
        f"active list of {ACTIVE_SURVEYS} surveys (wrk, 1 connection, per-worker cache)",
        f"p50 {result.p50_ms:.2f} ms, p99 {result.p99_ms:.2f} ms, {result.rps:,.0f} req/s",
        "(aim p50 <= 2 ms)",
    )
    return {"p50_ms": result.p50_ms, "p99_ms": result.p99_ms, "rps": result.rps, "surveys": listed}


def _answers(rng: random.Random) -> list[dict[str, Any]]:
    answers = [
        {"question_id": "score", "type": "nps", "value": min(10, int(rng.triangular(0, 11, 9)))},
        {"question_id": "ease", "type": "rating", "value": rng.randint(1, 5)},
    ]
    if rng.random() < 0.8:
        answers.append({"question_id": "role", "type": "single_choice", "value": rng.choice(ROLES)})
    if rng.random() < 0.7:
        answers.append({"question_id": "again", "type": "boolean", "value": rng.random() < 0.75})
    return answers


async def _seed_responses(
    session_maker: async_sessionmaker[AsyncSession],
    project: Project,
    survey_id: Any,
    count: int,
    rng: random.Random,
) -> None:
    """`count` responses over the last DAYS days, rows and counters written together per batch: the
    counters move by exactly what app/surveys/counters.py counts for each row."""
    now = utc_now()
    for first in range(0, count, SEED_BATCH):
        rows, counted = [], []
        for _ in range(min(SEED_BATCH, count - first)):
            moment = now - timedelta(seconds=rng.randrange(DAYS * 86_400))
            row = {
                "id": uuid7(),
                "survey_id": survey_id,
                "project_id": project.id,
                "answers": _answers(rng),
                "language": rng.choice(LANGUAGES),
                "path": f"/docs/page-{rng.randrange(200)}",
                "completed": rng.random() < 0.9,
                "day": moment.date(),
                "submitted_by_verified": False,
                "spam": False,
                "created_at": moment,
                "updated_at": moment,
            }
            rows.append(row)
            counted.append(Counted(survey_id, row["day"], row["language"], row["completed"], row["answers"]))
        async with unit_of_work(session_maker) as session:
            await session.execute(insert(SurveyResponse), rows)
            await add_to_counters(session, SurveyCounter.__table__, deltas([], counted))
            await session.commit()


async def _recount(session_maker: async_sessionmaker[AsyncSession], survey_id: Any) -> dict[str, int]:
    """What the stored rows hold, counted from them: German completed responses, and nps answers of 10."""
    async with unit_of_work(session_maker) as session:
        completed_de = await session.scalar(
            select(func.count())
            .select_from(SurveyResponse)
            .where(
                SurveyResponse.survey_id == survey_id,
                SurveyResponse.language == "de",
                SurveyResponse.completed.is_(True),
            )
        )
        tens = await session.scalar(
            text(
                "SELECT count(*) FROM survey_responses WHERE survey_id = :sid "
                "AND answers @> CAST(:ten AS jsonb)"
            ),
            {"sid": survey_id, "ten": json.dumps([{"question_id": "score", "value": 10}])},
        )
        return {"completed_de": int(completed_de or 0), "nps_10": int(tens or 0)}


def _get(server: Server, path: str, token: str) -> tuple[float, dict[str, Any]]:
    request = urllib.request.Request(server.url + path, headers={"X-API-Key": token})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
    return (time.perf_counter() - started) * 1000, json.loads(body)


def _results(server: Server, project: Project, survey_id: Any, token: str) -> dict[str, dict[str, Any]]:
    """Each query's p50 and p99 over CALLS sequential calls (after one warm-up call), and its last body."""
    since = (utc_now() - timedelta(days=30)).date().isoformat()
    until = (utc_now() - timedelta(days=1)).date().isoformat()
    base = f"/api/v1/projects/{project.id}/surveys/{survey_id}/results"
    queries = {
        "all": base,
        "since/until": f"{base}?{urlencode({'since': since, 'until': until})}",
        "language": f"{base}?language=de",
        "since/until/language": f"{base}?{urlencode({'since': since, 'until': until, 'language': 'de'})}",
    }
    figures = {}
    for name, path in queries.items():
        _get(server, path, token)
        timed = [_get(server, path, token) for _ in range(CALLS)]
        times = sorted(ms for ms, _ in timed)
        figures[name] = {
            "p50_ms": statistics.median(times),
            "max_ms": times[-1],
            "body": timed[-1][1],
        }
    return figures


def _postgres(
    record: Callable[..., None],
    app_env: Callable[[str, bool], dict[str, str]],
    rounds: int,
    seconds: int,
    rating_script: Callable[[str], str],
) -> dict[str, Any]:
    url = databases.postgres_create()
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    session_maker = config.create_session_maker()
    figures: dict[str, Any] = {}
    try:
        token, (small, listing, large) = asyncio.run(seed.tenant(session_maker))
        seed.partition_past_year(url)
        (survey_id,) = asyncio.run(_surveys(session_maker, small, 1))
        asyncio.run(_surveys(session_maker, listing, ACTIVE_SURVEYS))
        (results_survey,) = asyncio.run(_surveys(session_maker, large, 1))
        server = start("app.main:create_app", workers=2, env=app_env(url, True))
        try:
            before = asyncio.run(_count(session_maker, survey_id))
            figures["submit"] = _submits(
                record,
                "PostgreSQL, 2 workers:",
                server,
                {
                    "rating": (server.url + "/api/v1/rating/submit", rating_script(str(small.key))),
                    "survey": (
                        server.url + f"/api/v1/surveys/{survey_id}/responses/submit",
                        _response_script(survey_id, str(small.key)),
                    ),
                },
                rounds,
                seconds,
            )
            figures["submit"]["survey"]["stored"] = asyncio.run(_count(session_maker, survey_id)) - before
            figures["active_list"] = _active_list(record, server, str(listing.key), seconds)
            rng = random.Random(5)
            seeded = 0
            figures["results"] = {}
            for count in RESPONSES:
                started = time.monotonic()
                asyncio.run(_seed_responses(session_maker, large, results_survey, count - seeded, rng))
                seeded = count
                record(f"seeded survey responses up to {count:,}", f"{time.monotonic() - started:.0f} s")
                databases.analyze(url)
                measured = _results(server, large, results_survey, token)
                for name, at in measured.items():
                    record(
                        f"results ({name}) at {count:,} responses, {CALLS} calls",
                        f"p50 {at['p50_ms']:.1f} ms, max {at['max_ms']:.1f} ms",
                        "(aim p50 <= 200 ms)",
                    )
                recount = asyncio.run(_recount(session_maker, results_survey))
                everything = measured["all"]["body"]
                german = measured["language"]["body"]
                shown = {
                    "completed_de": german["completed"],
                    "nps_10": next(q for q in everything["questions"] if q["id"] == "score")["distribution"][
                        "10"
                    ],
                }
                if shown != recount or everything["responses"] != count:
                    raise SystemExit(
                        f"results {shown} (of {everything['responses']}) differ from a recount {recount}"
                    )
                record(f"results at {count:,} equal a recount of the rows", f"{recount}")
                figures["results"][str(count)] = {
                    name: {k: round(v, 2) for k, v in at.items() if k != "body"}
                    for name, at in measured.items()
                }
        finally:
            server.stop()
    finally:
        asyncio.run(config.get_engine().dispose())
        databases.postgres_drop(url)
    small_at, large_at = (figures["results"][str(count)]["all"]["p50_ms"] for count in RESPONSES)
    record(
        f"results p50 at {RESPONSES[0]:,} / {RESPONSES[1]:,} responses",
        f"{small_at:.1f} / {large_at:.1f} ms ({large_at / small_at:.2f}x)",
        "(does not grow with responses)",
    )
    return figures


def _sqlite(
    record: Callable[..., None],
    app_env: Callable[[str, bool], dict[str, str]],
    rounds: int,
    seconds: int,
    rating_script: Callable[[str], str],
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'surveys.db'}"
        databases.migrate(url)
        config = build_db_config(Settings(database_url=url, secret_key="bench"))
        session_maker = config.create_session_maker()
        try:
            _, (small, *_) = asyncio.run(seed.tenant(session_maker))
            (survey_id,) = asyncio.run(_surveys(session_maker, small, 1))
            server = start("app.main:create_app", workers=1, env=app_env(url, False))
            try:
                figures = _submits(
                    record,
                    "SQLite, 1 worker:",
                    server,
                    {
                        "rating": (server.url + "/api/v1/rating/submit", rating_script(str(small.key))),
                        "survey": (
                            server.url + f"/api/v1/surveys/{survey_id}/responses/submit",
                            _response_script(survey_id, str(small.key)),
                        ),
                    },
                    rounds,
                    seconds,
                )
                figures["survey"]["stored"] = asyncio.run(_count(session_maker, survey_id))
            finally:
                server.stop()
        finally:
            asyncio.run(config.get_engine().dispose())
    return figures


def surveys_part(
    record: Callable[..., None],
    app_env: Callable[[str, bool], dict[str, str]],
    rating_script: Callable[[str], str],
    rounds: int,
    seconds: int,
) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    if reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379):
        print("Surveys on PostgreSQL (2 workers, Redis)", flush=True)
        figures["postgres"] = _postgres(record, app_env, rounds, seconds, rating_script)
    else:
        print("PostgreSQL or Redis is not reachable on 127.0.0.1: surveys on SQLite only", flush=True)
    print("Surveys on SQLite (1 worker)", flush=True)
    figures["sqlite"] = _sqlite(record, app_env, rounds, seconds, rating_script)
    return figures
