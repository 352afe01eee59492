"""Real `hearken run` server processes for the tests that need several workers sharing one database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARKEN_")}
    env.update(HEARKEN_DATABASE_URL=database_url, HEARKEN_SECRET_KEY="test-secret-key-for-the-suite", **extra)
    return env


@contextmanager
def running_server(env: dict[str, str]) -> Iterator[str]:
    """Start one server on a free port; yield its base URL; stop it."""
    port = free_port()
    command = [_hearken(), "run", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base_url, process)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _wait_until_up(base_url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            httpx.options(f"{base_url}/api/v1/ratings", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("server did not start within 30 s")


def hearken(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the operator command line as an operator would."""
    return subprocess.run([_hearken(), *args], cwd=ROOT, env=env, capture_output=True, text=True)


def _hearken() -> str:
    return str(Path(sys.executable).parent / "hearken")
