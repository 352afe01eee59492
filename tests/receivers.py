"""A real HTTP receiver on 127.0.0.1 for webhook tests and the benchmark: it records every request and
answers with the statuses it is told, in order (then with the last one). And a silent one, which accepts
connections and never answers."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Script:
    statuses: list[int] = field(default_factory=lambda: [204])
    """The status of each request in turn; the last one repeats."""
    delay_seconds: float = 0.0
    answer: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class Receiver:
    def __init__(self, server: ThreadingHTTPServer, script: Script) -> None:
        self._server = server
        self.script = script
        self.requests: list[Received] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/hook"

    def record(self, request: Received) -> tuple[int, float, bytes, dict[str, str]]:
        with self._lock:
            self.requests.append(request)
            statuses = self.script.statuses
            status = statuses[min(len(self.requests), len(statuses)) - 1]
        return status, self.script.delay_seconds, self.script.answer, self.script.headers

    async def wait_for(self, count: int, seconds: float = 10.0) -> list[Received]:
        """The first `count` requests, once they have arrived (polled, so the event loop keeps running)."""
        deadline = time.monotonic() + seconds
        while len(self.requests) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.requests)} requests arrived within {seconds} s, not {count}")
            await asyncio.sleep(0.02)
        return self.requests[:count]


def _handler(receiver_ref: list[Receiver]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            status, delay, answer, headers = receiver_ref[0].record(received)
            if delay:
                time.sleep(delay)
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            except OSError:
                pass  # the sender gave up first (a timeout, or it read all it wanted)

        def log_message(self, *_: object) -> None:
            pass

    return Handler


@contextmanager
def receiver(script: Script | None = None) -> Iterator[Receiver]:
    ref: list[Receiver] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(ref))
    server.daemon_threads = True
    ref.append(Receiver(server, script or Script()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ref[0]
    finally:
        server.shutdown()
        server.server_close()


class SilentReceiver:
    """A receiver that hangs: it accepts every connection and never answers, as a stuck server does."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self._held: list[socket.socket] = []
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        host, port = self._listener.getsockname()[:2]
        return f"http://{host}:{port}/hook"

    @property
    def accepted(self) -> int:
        """Connections accepted so far (none is ever answered, so each is still held by its sender)."""
        return len(self._held)

    async def wait_for(self, count: int, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while self.accepted < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.accepted} connections within {seconds} s, not {count}")
            await asyncio.sleep(0.02)

    def serve(self) -> None:
        while not self._stopped.is_set():
            try:
                self._held.append(self._listener.accept()[0])
            except TimeoutError:
                continue

    def close(self) -> None:
        for held in self._held:
            held.close()
        self._listener.close()


@contextmanager
def silent_receiver() -> Iterator[SilentReceiver]:
    silent = SilentReceiver()
    thread = threading.Thread(target=silent.serve, daemon=True)
    thread.start()
    try:
        yield silent
    finally:
        silent._stopped.set()
        thread.join()
        silent.close()
