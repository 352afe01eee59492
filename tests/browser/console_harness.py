"""A real console server and Chromium for the console's browser tests (a separate file from the shared
tests/browser/conftest.py; the fixtures are imported by the test module that uses them).

The server is `uvicorn app.main:create_app` on a free port, on a SQLite database migrated by
`hearken database upgrade`, in a temporary folder that is also its working directory (var/ stays there)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"console server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/login", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("console server did not start")


@pytest.fixture(scope="module")
def console_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    folder = tmp_path_factory.mktemp("console-server")
    database = f"sqlite+aiosqlite:///{folder / 'hearken.db'}"
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "HEARKEN_DATABASE_URL": database,
        "HEARKEN_SECRET_KEY": "browser-test-secret-key-0123456789",
        "HEARKEN_BASE_URL": base_url,
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    env.pop("HEARKEN_REDIS_URL", None)
    # `hearken database upgrade`, as an operator runs it (and outside Playwright's event loop)
    hearken = Path(sys.executable).parent / "hearken"
    subprocess.run(
        [str(hearken), "database", "upgrade", "--no-prompt"],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "app.main:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=folder,
        env=env,
    )
    try:
        _wait_until_up(base_url, process)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    tab.on("dialog", lambda dialog: dialog.accept())
    yield tab
    context.close()


def screenshot(page: Page, name: str, *, width: int | None = None) -> Path:
    """A full-page screenshot under test-artifacts/console/ (optionally at a phone's width)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if width:
        page.set_viewport_size({"width": width, "height": 800})
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if width:
        page.set_viewport_size({"width": 1280, "height": 860})
    return path
