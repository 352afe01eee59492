"""The periodic check runs once across processes: two application instances (each its own engine and
pool) looking at the same moment check every project exactly once between them, no project again before
its hour has come, and each again once it has."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.alerts import checks
from app.config import Settings
from app.db.config import build_db_config
from app.db.models import Project
from tests.factories import Tenant, add_project

NOW = datetime(2026, 6, 30, 15, 0, tzinfo=UTC)


async def test_two_instances_check_each_project_once_an_hour(
    settings: Settings,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for index in range(4):
        await add_project(session_maker, tenant, name=f"Docs {index}", origins=("https://docs.example",))
    checked: Counter[UUID] = Counter()
    real_check = checks.check_project

    async def slow_check(session: AsyncSession, project: Project, now: datetime) -> None:
        checked[project.id] += 1
        await asyncio.sleep(0.05)  # both instances are looking meanwhile
        await real_check(session, project, now)

    monkeypatch.setattr(checks, "check_project", slow_check)
    await session_maker.kw["bind"].dispose()  # the arranging engine's connections are no instance's
    instances = [build_db_config(settings) for _ in range(2)]
    makers = [config.create_session_maker() for config in instances]
    try:
        counts = await asyncio.gather(*(checks.run_due_checks(maker, NOW) for maker in makers))
        assert sum(counts) == 5 and len(checked) == 5 and set(checked.values()) == {1}
        soon = await asyncio.gather(*(checks.run_due_checks(m, NOW + timedelta(minutes=30)) for m in makers))
        assert soon == [0, 0]
        later = await asyncio.gather(*(checks.run_due_checks(m, NOW + timedelta(minutes=61)) for m in makers))
        assert sum(later) == 5 and set(checked.values()) == {2}
    finally:
        for config in instances:
            await config.get_engine().dispose()
