"""Several `hearken run` processes behind HAProxy (deploy/haproxy.cfg) on one PostgreSQL and one Redis:
what `make cluster` starts for anyone to try, and what the fault tests start on a PostgreSQL and a Redis
of their own (PrivatePostgres, PrivateRedis), which they may stop, kill and start again.

`python -m tests.cluster` (make cluster) uses the machine's PostgreSQL and Redis: a database
`hearken_cluster` is created and migrated if missing; the nodes listen on 8001 and 8002, HAProxy on 8080.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from glob import glob
from pathlib import Path

import httpx

from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up
from tests.services import reachable

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
HEARKEN = str(Path(sys.executable).parent / "hearken")


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    """Poll `condition` until it holds; return how long that took; fail after `seconds`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        with contextlib.suppress(OSError, httpx.HTTPError):
            if condition():
                return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds:.0f} s")


@contextlib.contextmanager
def frozen(processes: Callable[[], list[int]]) -> Iterator[None]:
    """The processes stopped (SIGSTOP) for the block: the kernel still accepts their connections, nothing
    is answered. They are continued on the way out, whatever happened in the block."""
    stopped: list[int] = []
    try:
        # Listed twice: a process forked while the first list was read is stopped the second time.
        for _ in range(2):
            for pid in processes():
                if pid not in stopped:
                    os.kill(pid, signal.SIGSTOP)
                    stopped.append(pid)
        yield
    finally:
        _signal_all(stopped, signal.SIGCONT)


def _signal_all(pids: list[int], how: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, how)


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            # The command name, in parentheses, may hold spaces; the parent's id follows the state.
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(stat.parent.name))
    return found


@dataclass
class Node:
    """One `hearken run` process."""

    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Node:
        return self.launch().wait_until_up()

    def launch(self) -> Node:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [HEARKEN, "run", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    def wait_until_up(self) -> Node:
        assert self.process is not None
        wait_until_up(
            self.process,
            lambda: local_http.get(self.url + "/healthz", timeout=1).status_code == 200,
            on_exit=lambda: self.log.read_text()[-2000:],
            seconds=60,
        )
        return self

    def signal(self, how: signal.Signals) -> int:
        """Send `how`; return the exit status once the process has ended."""
        assert self.process is not None
        self.process.send_signal(how)
        return self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


@dataclass
class Balancer:
    """HAProxy with deploy/haproxy.cfg in front of two nodes."""

    nodes: tuple[Node, Node]
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Balancer:
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        env = {
            **os.environ,
            "HEARKEN_LB_BIND": f"127.0.0.1:{self.port}",
            "HEARKEN_NODE1": f"127.0.0.1:{self.nodes[0].port}",
            "HEARKEN_NODE2": f"127.0.0.1:{self.nodes[1].port}",
            "HEARKEN_DEPLOY": str(DEPLOY),
        }
        self.process = subprocess.Popen(
            [haproxy, "-db", "-f", str(DEPLOY / "haproxy.cfg")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_until_up(
            self.process, lambda: local_http.get(self.url + "/healthz", timeout=1).status_code == 200
        )
        return self

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            if self.process.stderr is not None:
                self.process.stderr.close()


def node_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARKEN_")}
    env.update(
        HEARKEN_DATABASE_URL=database_url,
        HEARKEN_REDIS_URL=redis_url,
        HEARKEN_SECRET_KEY="cluster-secret-key-for-tests-and-trials",
        HEARKEN_TRUSTED_PROXIES="127.0.0.1",
        HEARKEN_OUTBOX_POLL_SECONDS="0.2",
        HEARKEN_EMBEDDINGS="off",  # no model in the nodes: what they are tried on does not embed
        **extra,
    )
    return env


@contextlib.contextmanager
def cluster(env: dict[str, str], folder: Path, *, port: int | None = None) -> Iterator[Balancer]:
    """Two nodes and HAProxy; everything is stopped on the way out."""
    first = Node(env, folder / "node1.log")
    second = Node(env, folder / "node2.log")
    balancer = Balancer((first, second), **({"port": port} if port else {}))
    try:
        first.launch(), second.launch()  # both start at once: the slowest part of every fault test
        first.wait_until_up(), second.wait_until_up()
        yield balancer.start()
    finally:
        balancer.stop()
        first.stop()
        second.stop()


def _postgres_bin() -> Path:
    found = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL's server programs are not installed (/usr/lib/postgresql/*/bin)")
    return Path(found[-1]).parent


def _as_postgres(*command: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of its own in a temporary folder, on a free port; it can be stopped and
    started again on the same port and data."""

    folder: Path
    port: int = field(default_factory=free_port)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def init(self) -> PrivatePostgres:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(
            _as_postgres(str(_postgres_bin() / "initdb"), "-D", str(self.folder / "data"), "-A", "trust",
                         "-U", "postgres", "--no-sync"),
            check=True, capture_output=True,
        )  # fmt: skip
        return self.start()

    def start(self) -> PrivatePostgres:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_postgres(str(_postgres_bin() / "pg_ctl"), "-D", str(self.folder / "data"), "-o", options,
                         "-l", str(self.folder / "postgres.log"), "-w", "start"),
            check=True, capture_output=True,
        )  # fmt: skip
        return self

    def processes(self) -> list[int]:
        """The postmaster first, then its children (backends, checkpointer, ...); none when it is down."""
        try:
            postmaster = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            return []
        return [postmaster, *_children(postmaster)]

    def frozen(self) -> contextlib.AbstractContextManager[None]:
        """The whole server stopped (SIGSTOP): connections are accepted, no query is answered."""
        return frozen(self.processes)

    def stop(self, mode: str = "fast") -> None:
        _signal_all(self.processes(), signal.SIGCONT)  # a frozen server could not shut down
        subprocess.run(
            _as_postgres(str(_postgres_bin() / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "-w",
                         "stop"),
            capture_output=True,
        )  # fmt: skip


@dataclass
class PrivateRedis:
    """A redis-server of its own (no persistence), on a free port; stopping it loses its keys, as a
    restart of an unpersisted Redis does."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(lambda: reachable("127.0.0.1", self.port), 10, "redis-server starts")
        return self

    def frozen(self) -> contextlib.AbstractContextManager[None]:
        """The server stopped (SIGSTOP): connections are accepted, no command is answered."""
        return frozen(lambda: [] if self.process is None else [self.process.pid])

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)  # a frozen server could not shut down
            stop(self.process)
            self.process = None


def _machine_database() -> str:
    """The machine's PostgreSQL, database hearken_cluster (created and migrated when missing)."""
    import psycopg

    admin = os.environ.get("HEARKEN_CLUSTER_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = 'hearken_cluster'").fetchone():
            connection.execute("CREATE DATABASE hearken_cluster")
    url = admin.replace("postgresql://", "postgresql+psycopg://").rsplit("/", 1)[0] + "/hearken_cluster"
    migrated = subprocess.run(
        [HEARKEN, "database", "upgrade", "--no-prompt"],
        cwd=ROOT,
        env={**os.environ, "HEARKEN_DATABASE_URL": url},
        capture_output=True,
        text=True,
    )
    if migrated.returncode != 0:
        raise RuntimeError(migrated.stderr[-2000:])
    return url


def main() -> None:
    redis_url = os.environ.get("HEARKEN_CLUSTER_REDIS", "redis://127.0.0.1:6379/0")
    env = node_env(
        _machine_database(),
        redis_url,
        HEARKEN_REDIS_PREFIX="hearken-cluster:",
        HEARKEN_BASE_URL="http://127.0.0.1:8080",
    )
    folder = Path(tempfile.mkdtemp(prefix="hearken-cluster-"))
    first, second = Node(env, folder / "node1.log", port=8001), Node(env, folder / "node2.log", port=8002)
    balancer = Balancer((first, second), port=8080)
    try:
        first.start()
        second.start()
        balancer.start()
        print(f"Hearken on {balancer.url} (HAProxy) -> {first.url}, {second.url}; logs in {folder}")
        print("Create an account at http://127.0.0.1:8080/ ; Ctrl-C stops everything.", flush=True)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    finally:
        balancer.stop()
        first.stop()
        second.stop()


if __name__ == "__main__":
    main()
