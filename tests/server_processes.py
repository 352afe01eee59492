"""Server subprocesses for the tests and the benchmark: a free port, waiting for an answer, stopping."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Callable

import httpx

NOT_YET = (OSError, httpx.TransportError)
"""What a probe raises while the server is still starting."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(
    process: subprocess.Popen[bytes],
    probe: Callable[[], bool],
    *,
    seconds: float = 30,
    on_exit: Callable[[], str] = lambda: "",
) -> None:
    """Call `probe` until it returns True; fail at once if the process exits (with what `on_exit`
    tells, a log's tail say), or after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}: {on_exit()}")
        try:
            if probe():
                return
        except NOT_YET:
            pass
        time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"the server did not answer within {seconds:.0f} s")


def stop(process: subprocess.Popen[bytes], how: signal.Signals = signal.SIGTERM) -> None:
    """Ask the server to shut down (uvicorn finishes its requests and runs the shutdown hooks on SIGTERM
    or SIGINT), and kill it if it has not within 15 s."""
    if process.poll() is not None:
        return
    process.send_signal(how)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
