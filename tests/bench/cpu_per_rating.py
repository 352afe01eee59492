"""CPU time per stored rating, the application called as ASGI in one process (no server, no load
generator): 64 concurrent helpful-rating submits per wave on PostgreSQL and Redis, five runs of 60 waves.
Run from the root of the checkout to measure, alternating two checkouts for a before/after:
`.venv/bin/python -m tests.bench.cpu_per_rating [waves]`. Process CPU time is far steadier on a shared
machine than wrk rates; PostgreSQL's and Redis's own CPU is not in it. `tests.bench.instructions_per_rating`
runs it under callgrind for a figure that does not move with the machine's load."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import msgspec
import uvloop

from app.config import RateLimit, Settings
from app.db.config import build_db_config
from app.main import create_app
from tests import databases
from tests.bench import seed
from tests.services import REDIS_URL

WAVES, CONCURRENCY, RUNS = 60, 64, 5


async def measure(url: str) -> list[float]:
    config = build_db_config(Settings(database_url=url, secret_key="bench"))
    _, (small, _, _) = await seed.tenant(config.create_session_maker())
    unlimited = RateLimit(10**9, 60)
    settings = Settings(
        database_url=url,
        secret_key="bench",
        redis_url=REDIS_URL,
        redis_prefix=f"bench-cpu:{os.getpid()}:",
        rate_limit_client=unlimited,
        rate_limit_project=unlimited,
    )
    app = create_app(settings)
    body = msgspec.json.encode({"project_key": str(small.key), "value": True, "path": "/docs/page-1"})
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"origin", seed.ORIGIN.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    stored = 0

    async def submit() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal stored
            if message["type"] == "http.response.start" and message["status"] == 204:
                stored += 1

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": "/api/v1/rating/submit", "raw_path": b"/api/v1/rating/submit",
            "query_string": b"", "root_path": "", "headers": list(headers), "client": ("127.0.0.1", 5555),
            "server": ("127.0.0.1", 8000), "state": {},
        }  # fmt: skip
        await app(scope, receive, send)  # type: ignore[arg-type]

    lifespan_in: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    lifespan_out: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    await lifespan_in.put({"type": "lifespan.startup"})
    lifespan = asyncio.ensure_future(
        app({"type": "lifespan", "state": {}}, lifespan_in.get, lifespan_out.put)
    )  # type: ignore[arg-type]
    await lifespan_out.get()
    try:
        for _ in range(WAVES // 2):  # warm-up
            await asyncio.gather(*(submit() for _ in range(CONCURRENCY)))
        results = []
        for _ in range(RUNS):
            stored, started = 0, time.process_time()
            for _ in range(WAVES):
                await asyncio.gather(*(submit() for _ in range(CONCURRENCY)))
            results.append((time.process_time() - started) / max(stored, 1) * 1e6)
        return results
    finally:
        await lifespan_in.put({"type": "lifespan.shutdown"})
        await lifespan_out.get()
        await lifespan
        await config.get_engine().dispose()


def main() -> None:
    global WAVES, RUNS
    if len(sys.argv) > 1:  # one run of that many waves (and half as many to warm up)
        WAVES, RUNS = int(sys.argv[1]), 1
    url = databases.postgres_create()
    try:
        results = uvloop.run(measure(url))
    finally:
        databases.postgres_drop(url)
    runs = " ".join(f"{value:.1f}" for value in results)
    print(f"{os.getcwd()}: CPU per stored rating {sorted(results)[len(results) // 2]:.1f} µs (runs: {runs})")


if __name__ == "__main__":
    main()
