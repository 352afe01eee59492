"""What an application leaves behind when it shuts down: no open database connection, no worker process,
and an exit status a supervisor reads as a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.config import build_db_config
from app.main import create_app
from tests import databases
from tests.cluster import HEARKEN, ROOT
from tests.factories import Tenant
from tests.local_http import local_http
from tests.server_processes import free_port, wait_until_up


async def test_shutdown_closes_the_pooled_database_connections(settings: Settings, tenant: Tenant) -> None:
    # Another config made first, as migrations or a second app in the same process do: advanced-alchemy
    # then gives the app's config a suffixed state key, and its own lifespan no longer disposes the engine.
    build_db_config(settings)
    app: Litestar = create_app(settings)
    engine: AsyncEngine = app.state.database_engine
    async with AsyncTestClient(app=app) as client:
        response = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings", headers=tenant.headers)
        assert response.status_code == 200
        assert engine.sync_engine.pool.checkedin() >= 1  # the request's connection, back in the pool
    assert engine.sync_engine.pool.checkedin() == 0


def test_sigterm_drains_every_worker_and_exits_0(sqlite_template: Path, tmp_path: Path) -> None:
    """With `--wc 2` uvicorn runs as a child of `hearken run`: the signal reaches it and its workers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARKEN_")}
    env["HEARKEN_DATABASE_URL"] = databases.sqlite_copy(sqlite_template, tmp_path)
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [HEARKEN, "run", "--port", str(port), "--wc", "2"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=output,
        )
        try:
            url = f"http://127.0.0.1:{port}/healthz"
            wait_until_up(
                server, lambda: local_http.get(url, timeout=1).status_code == 200, on_exit=log.read_text
            )
            server.send_signal(signal.SIGTERM)
            assert server.wait(timeout=20) == 0
        finally:
            if server.poll() is None:
                server.kill()
    assert log.read_text().count("Application shutdown complete") == 2
    try:
        local_http.get(url, timeout=1)
        raise AssertionError("a worker still answers after the stop")
    except httpx.TransportError:
        pass
