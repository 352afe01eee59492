"""Server subprocesses for the tests and the benchmark: a free port, waiting for an answer, stopping."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import httpx

NOT_YET = (OSError, httpx.TransportError)
"""What a probe raises while the server is still starting."""


PORTS = range(20000, 32768)
"""Below Linux's ephemeral range (32768-60999): no outgoing connection and no bind to port 0 is given
one of these, so a port handed out here stays free until the server it was meant for binds it."""
_PORT_LOCKS = Path(tempfile.gettempdir()) / "hearken-test-ports"
_held: list[IO[bytes]] = []
"""One locked file per port handed out, held until this process ends (the kernel then drops the lock)."""


def free_port() -> int:
    """A port nothing listens on, reserved for this process until it ends: every test process on the
    machine (xdist workers, other checkouts' runs) takes a lock on the port's file first, so two of
    them are never handed the same port, even one that a stopped server will bind again later."""
    _PORT_LOCKS.mkdir(mode=0o777, exist_ok=True)
    start = (os.getpid() * 7919 + len(_held)) % len(PORTS)
    for offset in range(len(PORTS)):
        port = PORTS[(start + offset) % len(PORTS)]
        lock = (_PORT_LOCKS / str(port)).open("ab")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            continue
        if _bindable(port):
            _held.append(lock)
            return port
        lock.close()
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def wait_until_up(
    process: subprocess.Popen[bytes],
    probe: Callable[[], bool],
    *,
    seconds: float = 240,
    on_exit: Callable[[], str] = lambda: "",
) -> None:
    """Call `probe` until it returns True; fail at once if the process exits (with what `on_exit`
    tells, a log's tail say), or after `seconds`: long, because on a machine busy with parallel test
    workers importing the application alone has taken two minutes."""
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
