"""A Redis primary, its replica and three Redis Sentinels watching them, each a process of the test's own
on a free port, with timeouts short enough for a failover to finish within seconds."""

from __future__ import annotations

import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import redis

from tests.cluster import wait_for
from tests.server_processes import free_port, stop
from tests.services import reachable

SERVICE = "hearken"
DOWN_AFTER_MS = 1000
"""How long a primary must not answer before a sentinel thinks it down."""
FAILOVER_TIMEOUT_MS = 3000


def sentinel_programs_missing() -> list[str]:
    return [name for name in ("redis-server", "redis-sentinel") if shutil.which(name) is None]


@dataclass
class RedisServer:
    folder: Path
    replica_of: int | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        replication = ["--replicaof", "127.0.0.1", str(self.replica_of)] if self.replica_of else []
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", str(self.folder), *replication],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(lambda: reachable("127.0.0.1", self.port), 10, "redis-server starts")
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


@dataclass
class RedisSentinel:
    folder: Path
    primary_port: int
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisSentinel:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "sentinel.conf"  # a sentinel rewrites its file: one each, writable
        config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {self.folder}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary_port} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
        self.process = subprocess.Popen(
            ["redis-sentinel", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        wait_for(lambda: reachable("127.0.0.1", self.port), 10, "redis-sentinel starts")
        return self

    def primary_port_now(self) -> int:
        with redis.Redis(port=self.port, socket_timeout=2) as client:
            _host, port = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
        return int(port)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


@dataclass
class SentinelGroup:
    """A primary, one replica and three sentinels (quorum two)."""

    folder: Path
    primary: RedisServer = field(init=False)
    replica: RedisServer = field(init=False)
    sentinels: list[RedisSentinel] = field(default_factory=list)

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{sentinel.port}" for sentinel in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def start(self) -> SentinelGroup:
        self.primary = RedisServer(self.folder / "primary").start()
        self.replica = RedisServer(self.folder / "replica", replica_of=self.primary.port).start()
        wait_for(self._replica_in_sync, 10, "the replica follows the primary")
        self.sentinels = [
            RedisSentinel(self.folder / f"sentinel{n}", self.primary.port).start() for n in range(3)
        ]
        wait_for(self._sentinels_know_each_other, 15, "the sentinels find each other and the replica")
        return self

    def _replica_in_sync(self) -> bool:
        with self.replica.client() as client:
            return client.info("replication").get("master_link_status") == "up"

    def _sentinels_know_each_other(self) -> bool:
        for sentinel in self.sentinels:
            with redis.Redis(port=sentinel.port, socket_timeout=2) as client:
                primary = client.execute_command("SENTINEL", "MASTER", SERVICE)
                fields = dict(zip(primary[::2], primary[1::2], strict=True))
                if int(fields[b"num-other-sentinels"]) < 2 or int(fields[b"num-slaves"]) < 1:
                    return False
        return True

    def stop(self) -> None:
        for sentinel in self.sentinels:
            sentinel.stop()
        self.replica.stop()
        self.primary.stop()
