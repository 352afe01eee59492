"""A served connection waits idle for its next request longer than HAProxy keeps an idle connection to a
process, so that HAProxy closes it first. With uvicorn's 5 s, a process closed a connection HAProxy had
just sent a POST on, and HAProxy closed the client's connection unanswered: one submission of the fault
tests' load failed with RemoteProtocolError while PostgreSQL was frozen (every request waited 8.5 s,
long enough for HAProxy's idle connections to reach the process's 5 s)."""

from __future__ import annotations

import os
from typing import Any

import pytest
import uvicorn

from app.cli import KEEP_ALIVE_SECONDS, _keep_idle_connections

HAPROXY_PURGE_SECONDS = 5
"""HAProxy's `pool-purge-delay` (deploy/haproxy.cfg keeps the default): every 5 s it closes half of the
idle connections to a process, so an idle one can live several of these."""


def test_hearken_run_keeps_idle_connections_longer_than_haproxy(monkeypatch: pytest.MonkeyPatch) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda **options: served.update(options))
    monkeypatch.setenv("UVICORN_TIMEOUT_KEEP_ALIVE", "0")
    monkeypatch.delenv("UVICORN_TIMEOUT_KEEP_ALIVE")
    _keep_idle_connections(KEEP_ALIVE_SECONDS)
    uvicorn.run(app="app.main:served_app", host="127.0.0.1", port=8000)  # as Litestar's `run` calls it
    assert served["timeout_keep_alive"] >= 10 * HAPROXY_PURGE_SECONDS
    assert os.environ["UVICORN_TIMEOUT_KEEP_ALIVE"] == str(served["timeout_keep_alive"])  # --wc N


def test_an_operator_s_keep_alive_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda **options: served.update(options))
    monkeypatch.setenv("UVICORN_TIMEOUT_KEEP_ALIVE", "120")
    _keep_idle_connections(KEEP_ALIVE_SECONDS)
    uvicorn.run(app="app.main:served_app")
    assert served["timeout_keep_alive"] == 120
