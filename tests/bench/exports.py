"""Exports of a million rows from a real server process: time to the first byte, total time, rows and
bytes received, and the workers' peak resident size sampled while the export streams."""

from __future__ import annotations

import http.client
import threading
import time
from typing import Any

from tests.bench.servers import Server

CHUNK = 1 << 16


def measure_export(server: Server, path: str, token: str) -> dict[str, Any]:
    """Downloads `path` once, reading and discarding as it arrives, like a client saving to disk."""
    before = max(server.worker_rss_mb())
    peak = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            peak[0] = max(peak[0], *server.worker_rss_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    started = time.monotonic()
    try:
        connection.request("GET", path, headers={"X-API-Key": token})
        response = connection.getresponse()
        if response.status != 200:
            raise SystemExit(f"GET {path} answered {response.status}: {response.read()[:200]!r}")
        first = response.read1(CHUNK)
        first_byte = time.monotonic() - started
        received, lines = len(first), first.count(b"\n")
        while chunk := response.read1(CHUNK):
            received += len(chunk)
            lines += chunk.count(b"\n")
        total = time.monotonic() - started
    finally:
        connection.close()
        done.set()
        sampler.join()
    return {
        "first_byte_s": round(first_byte, 3),
        "total_s": round(total, 1),
        "lines": lines,
        "mb": round(received / 1e6, 1),
        "rss_before_mb": round(before),
        "rss_peak_mb": round(peak[0]),
    }


def describe(figures: dict[str, Any]) -> str:
    return (
        f"first byte {figures['first_byte_s'] * 1000:.0f} ms, {figures['lines']:,} lines "
        f"({figures['mb']:,.0f} MB) in {figures['total_s']:.0f} s, worker RSS {figures['rss_before_mb']} "
        f"-> peak {figures['rss_peak_mb']} MB"
    )
