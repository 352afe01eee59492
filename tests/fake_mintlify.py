"""A local fake of Mintlify's analytics feedback API, on 127.0.0.1 in a thread.

`GET /api/external/v1/analytics/{projectId}/feedback` with `Authorization: Bearer <key>`, `limit`
(1-100), `dateFrom`, `cursor` → `{"feedback": [...], "nextCursor", "hasMore"}`, newest first as
Mintlify lists them. Every request is recorded; `refuse_next` makes the next answers fail (a status
with headers, or a delay for timeouts).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

PREFIX = "/api/external/v1/analytics/"


@dataclass
class Refusal:
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b'{"error": "refused"}'
    delay: float = 0.0


@dataclass
class FakeMintlify:
    project_id: str
    api_key: str
    records: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, n: int, *, start: int = 0, day: str = "2026-11-20", **extra: Any) -> None:
        for i in range(start, start + n):
            self.records.append(
                {
                    "id": f"fb_{i:04d}",
                    "path": f"/docs/page-{i}",
                    "comment": f"Comment {i}",
                    "createdAt": f"{day}T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z",
                    "source": "contextual",
                    "status": "pending",
                    "helpful": i % 2 == 0,
                    **extra,
                }
            )

    def forget(self) -> None:
        """No record, request or refusal: as new, at the same address."""
        with self.lock:
            self.records.clear()
            self.requests.clear()
            self.refusals.clear()

    def refuse_next(self, *refusals: Refusal) -> None:
        with self.lock:
            self.refusals.extend(refusals)

    def answer(
        self, path: str, query: dict[str, list[str]], authorization: str | None
    ) -> tuple[int, dict[str, str], bytes, float]:
        with self.lock:
            self.requests.append(
                {"path": path, "query": {k: v[0] for k, v in query.items()}, "auth": authorization}
            )
            if self.refusals:
                refusal = self.refusals.pop(0)
                return refusal.status, refusal.headers, refusal.body, refusal.delay
        if path != f"{PREFIX}{self.project_id}/feedback":
            return 404, {}, b'{"error": "not found"}', 0
        if authorization != f"Bearer {self.api_key}":
            return 401, {}, b'{"error": "unauthorized"}', 0
        limit = int(query.get("limit", ["50"])[0])
        if not 1 <= limit <= 100:
            return 400, {}, b'{"error": "limit"}', 0
        chosen = sorted(self.records, key=lambda r: r["createdAt"], reverse=True)
        if "dateFrom" in query:
            since = _moment(query["dateFrom"][0])
            chosen = [r for r in chosen if _moment(r["createdAt"]) >= since]
        start = int(query.get("cursor", ["0"])[0])
        page = chosen[start : start + limit]
        more = start + limit < len(chosen)
        body = {"feedback": page, "nextCursor": str(start + limit) if more else None, "hasMore": more}
        return 200, {}, json.dumps(body).encode(), 0


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@contextmanager
def running(fake: FakeMintlify) -> Iterator[FakeMintlify]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            status, headers, body, delay = fake.answer(
                parts.path, parse_qs(parts.query), self.headers.get("Authorization")
            )
            time.sleep(delay)
            try:
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass  # the client gave up (a timeout test)

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
