"""A real Hearken server and a separate host-page server for browser tests.

The Hearken server is uvicorn in a subprocess on a free port with a migrated SQLite database of its own,
exactly as `make run` serves. The host server is another origin (another port) that serves the pages a
customer would write, with the headers a test asks for (a strict CSP, say).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from tests.factories import Tenant, add_project, make_tenant
from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up

SECRET_KEY = "browser-tests-secret-key"
REPO_ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
UVICORN = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app"]


@dataclass
class LiveServer:
    """uvicorn serving create_app() from the environment, as in production."""

    database_url: str
    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, extra_env: dict[str, str] | None = None) -> None:
        env = {
            **os.environ,
            "HEARKEN_DATABASE_URL": self.database_url,
            "HEARKEN_SECRET_KEY": SECRET_KEY,
            "HEARKEN_HOST": "127.0.0.1",
            "HEARKEN_PORT": str(self.port),
            "PYTHONPATH": str(REPO_ROOT),  # this checkout's code, whatever the installed package maps
            "HEARKEN_EMBEDDINGS": "off",  # no model unless a test asks for insights
            # The browser reaches the server as through a proxy at 127.0.0.1: a console page names its own
            # client in X-Forwarded-For (console_harness.page), so the per-client sign-up and sign-in
            # budgets count each test as the separate visitor it is, wherever the scheduler puts it.
            "HEARKEN_TRUSTED_PROXIES": "127.0.0.1/32",
            **(extra_env or {}),
        }
        log = (self.folder / "server.log").open("wb")
        self.process = subprocess.Popen(
            [*UVICORN, "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
            cwd=self.folder,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_until_up(
            self.process,
            lambda: (
                local_http.get(f"{self.base_url}/static/widgets/v1/helpful.js", timeout=1).status_code == 200
            ),
            on_exit=lambda: (self.folder / "server.log").read_text()[-2000:],
        )

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)

    def tenant(self, *, origins: tuple[str, ...]) -> Tenant:
        """A new organization with tokens and a project that allows `origins`, made through the services."""
        return self._arrange(lambda maker: make_tenant(maker, name="Browser", origins=origins))

    def project(self, tenant: Tenant, *, origins: tuple[str, ...]) -> Tenant:
        """Another project of the same organization (its own rate-limit budget)."""
        project = self._arrange(lambda maker: add_project(maker, tenant, name="More", origins=origins))
        return Tenant(tenant.org_id, tenant.token, tenant.read_token, project)

    def _arrange(self, work: Callable[[async_sessionmaker[AsyncSession]], Awaitable[T]]) -> T:
        """Run `work` with sessions on the server's database, in a thread of its own: Playwright's sync
        API keeps an event loop running in the test's thread."""

        async def run() -> T:
            config = build_db_config(Settings(database_url=self.database_url, secret_key=SECRET_KEY))
            try:
                return await work(config.create_session_maker())
            finally:
                await config.get_engine().dispose()

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, run()).result()

    def read(self, tenant: Tenant, path: str) -> dict:  # type: ignore[type-arg]
        """GET an authenticated API path of the tenant's project, e.g. "ratings/typed?type=star"."""
        response = local_http.get(
            f"{self.base_url}/api/v1/projects/{tenant.project_id}/{path}", headers=tenant.headers, timeout=10
        )
        response.raise_for_status()
        return response.json()  # type: ignore[no-any-return]


class HostPages:
    """Serves registered pages from its own origin: what a customer's site would be."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[bytes, str, dict[str, str]]] = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                found = pages.get(self.path.split("?")[0])
                if found is None:
                    self.send_error(404)
                    return
                body, content_type, headers = found
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.add("/favicon.ico", "", content_type="image/x-icon")  # browsers ask for it
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def add(
        self, path: str, body: str, *, content_type: str = "text/html; charset=utf-8", **headers: str
    ) -> str:
        """Serve `body` at `path` with extra headers (Content_Security_Policy=...); return its URL."""
        self.pages[path] = (body.encode(), content_type, {k.replace("_", "-"): v for k, v in headers.items()})
        return self.origin + path
