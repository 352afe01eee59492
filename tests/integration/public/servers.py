"""Real `hearken run` server processes for the tests that need several workers sharing one database."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import anyio

from app.cli import main
from app.config import get_settings
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


_ONE_COMMAND_AT_A_TIME = threading.Lock()


def hearken_here(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The operator command line run by its own entry point (`app.cli.main`) in this process, with the
    environment and arguments `hearken` would get: what it prints and its exit status, as `hearken()`
    reports them. A process costs about 2.5 s of CPU (importing the application) and shows nothing
    more of an operator command than this; the tests of what only a process shows (the installed
    script, `--help`, a database out of reach) run `hearken()`. Hashing here is the test process's
    light one. From a coroutine, call `hearken_in_thread`."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (
        _ONE_COMMAND_AT_A_TIME,
        mock.patch.dict(os.environ, env, clear=True),
        mock.patch.object(sys, "argv", ["hearken", *args]),
        redirect_stdout(stdout),
        redirect_stderr(stderr),
    ):
        get_settings.cache_clear()  # read from this environment, as a process would, and forgotten after
        try:
            main()
            status = 0
        except SystemExit as exit:
            if isinstance(exit.code, str):
                print(exit.code, file=sys.stderr)
            status = exit.code if isinstance(exit.code, int) else int(exit.code is not None)
        except Exception:  # a process would die with its traceback on stderr
            traceback.print_exc()
            status = 1
        finally:
            get_settings.cache_clear()
    return subprocess.CompletedProcess(["hearken", *args], status, stdout.getvalue(), stderr.getvalue())


async def hearken_in_thread(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`hearken_here` from a coroutine: the command runs an event loop of its own, in a thread."""
    return await anyio.to_thread.run_sync(lambda: hearken_here(env, *args))


def _hearken() -> str:
    return str(Path(sys.executable).parent / "hearken")
