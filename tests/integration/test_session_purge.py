"""Expired console sessions are swept off the disk while the application serves (at start, then hourly),
so abandoned sessions do not pile up in the file store."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from litestar.stores.file import FileStore
from litestar.testing import AsyncTestClient

from admin_ui.sessions import LOGIN_ATTEMPT_STORE, SESSION_STORE, ConsoleFileStore
from app.config import Settings
from app.main import create_app


async def test_expired_sessions_leave_the_disk_when_the_app_starts(
    settings: Settings, tmp_path: Path
) -> None:
    app = create_app(settings)
    sessions = FileStore(tmp_path / "sessions", create_directories=True)
    app.stores.register(SESSION_STORE, sessions, allow_override=True)
    await sessions.set("abandoned", b"{}", expires_in=1)
    await sessions.set("current", b"{}", expires_in=3600)
    await asyncio.sleep(1.1)
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/healthz")).status_code == 200
        for _ in range(50):
            if len(list((tmp_path / "sessions").iterdir())) == 1:
                break
            await asyncio.sleep(0.05)
    assert await sessions.exists("current")
    assert len(list((tmp_path / "sessions").iterdir())) == 1


async def test_a_fresh_start_sweeps_without_an_error(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A fresh data directory has no session files yet, and the sweep at start may run before Litestar
    makes the stores' directories (stores are entered after the application's own lifespan hooks). The
    test's stores never make them, which is that race lost: the sweep finds nothing and logs no error."""
    monkeypatch.chdir(tmp_path)  # the stores' var/ is relative to where the server starts
    app = create_app(settings)
    swept = {name: NotedFileStore(tmp_path / "fresh" / name) for name in (SESSION_STORE, LOGIN_ATTEMPT_STORE)}
    for name, store in swept.items():
        app.stores.register(name, store, allow_override=True)
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/healthz")).status_code == 200
        await asyncio.wait_for(swept[SESSION_STORE].swept.wait(), 10)
        assert not _errors(caplog)
        await asyncio.wait_for(swept[LOGIN_ATTEMPT_STORE].swept.wait(), 10)
    assert not _errors(caplog)


class NotedFileStore(ConsoleFileStore):
    """A file store that says when a sweep of it has ended, well or not."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.swept = asyncio.Event()

    async def delete_expired(self) -> None:
        try:
            await super().delete_expired()
        finally:
            self.swept.set()


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
