"""Expired console sessions are swept off the disk while the application serves (at start, then hourly),
so abandoned sessions do not pile up in the file store."""

from __future__ import annotations

import asyncio
from pathlib import Path

from litestar.stores.file import FileStore
from litestar.testing import AsyncTestClient

from admin_ui.sessions import SESSION_STORE
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
