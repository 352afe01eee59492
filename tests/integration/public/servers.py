"""Real `hearken run` server processes for the tests that need several workers sharing one database."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[3]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARKEN_")}
    # Insights off unless a test asks for them: a server that embeds loads the model.
    env.update(HEARKEN_DATABASE_URL=database_url, HEARKEN_SECRET_KEY="test-secret-key-for-the-suite",
               HEARKEN_EMBEDDINGS="off")  # fmt: skip
    env.update(extra)
    return env


@contextmanager
def running_server(env: dict[str, str]) -> Iterator[str]:
    """Start one server on a free port; yield its base URL; stop it."""
    port = free_port()
    command = [_hearken(), "run", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(
            process, lambda: local_http.options(f"{base_url}/api/v1/ratings", timeout=1).status_code < 500
        )
        yield base_url
    finally:
        stop(process)


def hearken(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the operator command line as an operator would."""
    return subprocess.run([_hearken(), *args], cwd=ROOT, env=env, capture_output=True, text=True)


def _hearken() -> str:
    return str(Path(sys.executable).parent / "hearken")
