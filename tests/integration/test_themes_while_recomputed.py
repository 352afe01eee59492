"""Themes read while a recomputation commits: each statement of a read sees the latest commit (READ
COMMITTED on PostgreSQL, SQLite outside a write), so a report read in several statements could pair the
new `computed_at` with the old themes, and a client waiting for `computed_at` to move after a refresh
would take "no themes" for the answer. The report never names a newer computation than the themes it
shows."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from app.config import Settings
from app.db.config import build_db_config
from app.db.transactions import unit_of_work
from app.insights.clustering import Cluster
from app.insights.themes import _store
from app.main import create_app
from tests.factories import Tenant
from tests.integration.test_insights_service import FakeService, service

__all__ = ["service"]

MESSAGES = ["export to excel please", "please add export to excel", "an excel export would help"]


@pytest.fixture
async def client(
    settings: Settings, service: tuple[FakeService, str]
) -> AsyncIterator[AsyncTestClient[Litestar]]:
    """Vectors from the fake embeddings service; no periodic themes of the application's own."""
    with_service = replace(settings, embeddings=service[1], embeddings_model="fake-embedder")
    async with AsyncTestClient(app=create_app(with_service)) as test_client:
        yield test_client


def recompute_committed_meanwhile(settings: Settings, project_id: UUID, ids: list[UUID]) -> None:
    """Store one theme of every item as a recomputation in another process would, and commit."""

    async def store() -> None:
        config = build_db_config(settings)
        try:
            async with unit_of_work(config.create_session_maker()) as session:
                found = Cluster(members=list(range(len(ids))), label="Excel export", keywords=["excel"])
                await _store(session, project_id, 1, [ids], [found])
        finally:
            await config.get_engine().dispose()

    worker = threading.Thread(target=asyncio.run, args=(store(),))
    worker.start()
    worker.join()


@pytest.fixture
def commit_when_themes_are_read(settings: Settings) -> Iterator[list[Any]]:
    """Arm with (project_id, ids): the next SELECT of the themes table, by anyone, first waits for the
    recomputation to commit."""
    armed: list[Any] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if armed and statement.lstrip().upper().startswith("SELECT") and "FROM themes" in statement:
            project_id, ids = armed.pop()
            recompute_committed_meanwhile(settings, project_id, ids)

    event.listen(Engine, "before_cursor_execute", before)
    yield armed
    event.remove(Engine, "before_cursor_execute", before)


async def test_a_recomputation_committing_during_the_read_is_shown_whole_or_not_at_all(
    client: AsyncTestClient[Litestar], tenant: Tenant, commit_when_themes_are_read: list[Any]
) -> None:
    base = f"/api/v1/projects/{tenant.project_id}"
    ids = []
    for message in MESSAGES:
        answer = await client.post(f"{base}/feedback", json={"message": message}, headers=tenant.headers)
        ids.append(answer.json()["id"])
    deadline = time.monotonic() + 60
    while (await client.get(f"{base}/themes", headers=tenant.headers)).json()["pending"]:
        assert time.monotonic() < deadline, "vectors"
        await asyncio.sleep(0.2)
    before = (await client.get(f"{base}/themes", headers=tenant.headers)).json()
    assert before["themes"] == [] and before["computed_at"] is None

    commit_when_themes_are_read.append((UUID(tenant.project_id), [UUID(i) for i in ids]))
    read = (await client.get(f"{base}/themes", headers=tenant.headers)).json()
    assert not commit_when_themes_are_read, "the recomputation did not run during the read"
    assert read["computed_at"] is not None
    assert [(t["label"], t["count"]) for t in read["themes"]] == [("Excel export", 3)], read
