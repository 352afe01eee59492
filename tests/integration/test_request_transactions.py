"""One transaction per request: a success is answered only once its writes are committed, a failed commit
is 503 with nothing stored, and background work commits its unit of work or nothing."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, OutboxJob
from app.db.tracked_session import TrackedSession
from app.db.transactions import unit_of_work
from tests.factories import Tenant


async def _count(session_maker: async_sessionmaker[AsyncSession], model: Any) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_a_failed_commit_is_503_and_stores_nothing(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def failing_commit(self: TrackedSession) -> None:
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(TrackedSession, "commit", failing_commit)
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json={"message": "Lost?"}, headers=tenant.headers
    )
    monkeypatch.undo()
    assert response.status_code == 503
    assert response.json()["error"] == "unavailable"
    assert await _count(session_maker, FeedbackItem) == 0


async def test_a_success_is_answered_after_its_commit(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json={"message": "Kept"}, headers=tenant.headers
    )
    assert response.status_code == 201
    async with unit_of_work(session_maker) as session:
        stored = await session.scalar(
            select(FeedbackItem.message).where(FeedbackItem.id == response.json()["id"])
        )
    assert stored == "Kept"


async def test_a_unit_of_work_that_raises_stores_nothing(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    before = await _count(session_maker, OutboxJob), await _count(session_maker, FeedbackItem)
    with pytest.raises(RuntimeError):
        async with unit_of_work(session_maker) as session:
            session.add(FeedbackItem(project_id=tenant.project.id, message="half done"))
            await session.flush()
            raise RuntimeError("the import failed halfway")
    assert (await _count(session_maker, OutboxJob), await _count(session_maker, FeedbackItem)) == before
