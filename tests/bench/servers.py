"""Start the application (or the bare yardstick) as a real server process, and read its workers' memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.server_processes import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def worker_rss_mb(self) -> list[float]:
        """Resident size of each worker process (the children of the supervisor, or the process itself)."""
        children = _children(self.process.pid)
        return [_rss_mb(pid) for pid in (children or [self.process.pid])]

    def stop(self) -> None:
        stop(self.process, signal.SIGINT)


def start(
    factory: str, *, workers: int, env: dict[str, str], ready_path: str = "/schema/openapi.json"
) -> Server:
    """uvicorn with uvloop and httptools: chosen by measurement (see docs/performance.md)."""
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "--factory", factory,
        "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--loop", "uvloop", "--http", "httptools", "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env})
    server = Server(process, port)

    def every_worker_answers() -> bool:
        with urllib.request.urlopen(server.url + ready_path, timeout=1):
            pass
        return workers == 1 or len(_children(process.pid)) >= workers

    wait_until_up(process, every_worker_answers, seconds=60, on_exit=lambda: factory)
    time.sleep(0.5)
    return server


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split() if not _is_resource_tracker(int(child))]


def _is_resource_tracker(pid: int) -> bool:
    """multiprocessing's helper process beside uvicorn's workers: not a worker."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0
