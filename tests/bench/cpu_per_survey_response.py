"""CPU time per survey response submit beside a rating submit's, the application called as ASGI in one
process (no server, no load generator), on SQLite: 64 concurrent submits per wave, rounds of WAVES waves
alternating rating and survey submits (the bench's bodies: a completed nps, rating, choice and boolean
answer set in German; a helpful rating). Run from the root of the checkout:
`.venv/bin/python -m tests.bench.cpu_per_survey_response [rounds] [waves]`. Process CPU time is far
steadier on a shared machine than wrk rates. `HEARKEN_PROFILE=survey` (or `rating`) profiles that kind's
submits with cProfile first (profile-<kind>.prof, and the functions of most own time printed).
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvloop

from app.config import RateLimit, Settings
from app.db.config import build_db_config
from app.main import create_app
from tests import databases
from tests.bench import seed
from tests.bench.surveys import _count, _surveys

ROUNDS, WAVES, CONCURRENCY = 3, 30, 64


def _rating_body(project_key: str) -> Callable[[int], bytes]:
    def body(n: int) -> bytes:
        value = "false" if n % 3 == 0 else "true"
        return f'{{"project_key":"{project_key}","value":{value},"path":"/docs/page-{n % 50}"}}'.encode()

    return body


def _survey_body(project_key: str) -> Callable[[int], bytes]:
    def body(n: int) -> bytes:
        return (
            f'{{"project_key":"{project_key}","language":"de","completed":true,"path":"/docs/page-{n % 50}",'
            f'"answers":[{{"question_id":"score","value":{n % 11}}},'
            f'{{"question_id":"ease","value":{n % 5 + 1}}},'
            '{"question_id":"role","value":"dev"},{"question_id":"again","value":true}]}'
        ).encode()

    return body


async def measure(url: str) -> dict[str, list[float]]:
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    session_maker = config.create_session_maker()
    _, (small, *_) = await seed.tenant(session_maker)
    (survey_id,) = await _surveys(session_maker, small, 1)
    unlimited = RateLimit(10**9, 60)
    settings = Settings(
        database_url=url, secret_key="bench", rate_limit_client=unlimited, rate_limit_project=unlimited
    )
    app = create_app(settings)
    kinds = {
        "rating": ("/api/v1/rating/submit", _rating_body(str(small.key)), 204),
        "survey": (f"/api/v1/surveys/{survey_id}/responses/submit", _survey_body(str(small.key)), 200),
    }
    stored = 0
    sent = 0

    async def submit(path: str, body: bytes, ok: int) -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal stored
            if message["type"] == "http.response.start":
                if message["status"] != ok:
                    raise SystemExit(f"{path} answered {message['status']}")
                stored += 1

        headers = [
            (b"host", b"127.0.0.1:8000"),
            (b"content-type", b"application/json"),
            (b"origin", seed.ORIGIN.encode()),
            (b"content-length", str(len(body)).encode()),
        ]
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": headers, "client": ("127.0.0.1", 5555), "server": ("127.0.0.1", 8000), "state": {},
        }  # fmt: skip
        await app(scope, receive, send)  # type: ignore[arg-type]

    async def waves(kind: str, count: int) -> None:
        nonlocal sent
        path, body, ok = kinds[kind]
        for _ in range(count):
            await asyncio.gather(*(submit(path, body(sent + i), ok) for i in range(CONCURRENCY)))
            sent += CONCURRENCY

    lifespan_in: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    lifespan_out: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    await lifespan_in.put({"type": "lifespan.startup"})
    lifespan = asyncio.ensure_future(
        app({"type": "lifespan", "state": {}}, lifespan_in.get, lifespan_out.put)
    )  # type: ignore[arg-type]
    await lifespan_out.get()
    results: dict[str, list[float]] = {kind: [] for kind in kinds}
    loop_share: dict[str, list[float]] = {kind: [] for kind in kinds}
    try:
        only = os.environ.get("HEARKEN_ONLY")  # one kind's submits alone, to sample with py-spy
        for kind in [only] if only else kinds:  # warm-up
            await waves(kind, WAVES // 2)
        profiled = os.environ.get("HEARKEN_PROFILE")
        if profiled:
            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()
            await waves(profiled, WAVES)
            profiler.disable()
            profiler.dump_stats(f"profile-{profiled}.prof")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        for round_ in range(ROUNDS):
            for kind in [only] if only else kinds if round_ % 2 == 0 else reversed(kinds):
                stored, started, on_loop = 0, time.process_time(), time.thread_time()
                await waves(kind, WAVES)
                results[kind].append((time.process_time() - started) / max(stored, 1) * 1e6)
                loop_share[kind].append((time.thread_time() - on_loop) / max(stored, 1) * 1e6)
        if not only and await _count(session_maker, survey_id) < ROUNDS * WAVES * CONCURRENCY:
            raise SystemExit("fewer survey responses stored than acknowledged")
        on_loop = {kind: [round(value) for value in values] for kind, values in loop_share.items()}
        print(f"of which on the event loop's thread (µs): {on_loop}")
        return results
    finally:
        await lifespan_in.put({"type": "lifespan.shutdown"})
        await lifespan_out.get()
        await lifespan
        await config.get_engine().dispose()


def main() -> None:
    global ROUNDS, WAVES
    if len(sys.argv) > 1:
        ROUNDS = int(sys.argv[1])
    if len(sys.argv) > 2:
        WAVES = int(sys.argv[2])
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'cpu.db'}"
        databases.migrate(url)
        results = uvloop.run(measure(url))
    rating, survey = (statistics.median(results[kind] or [1]) for kind in ("rating", "survey"))
    runs = {kind: " ".join(f"{value:.0f}" for value in values) for kind, values in results.items()}
    print(
        f"{os.getcwd()}: CPU per submit, SQLite: survey {survey:.0f} µs ({runs['survey']}), "
        f"rating {rating:.0f} µs ({runs['rating']}): {survey / rating:.2f}x"
    )


if __name__ == "__main__":
    main()
