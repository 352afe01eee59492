"""The periodic Mintlify import runs once per interval across every process: claims race on the row,
and two real server processes on PostgreSQL import a due integration once, not twice."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import FeedbackItem, MintlifyIntegration
from app.db.transactions import unit_of_work
from app.integrations.mintlify_integrations import MintlifyIntegrations
from app.integrations.mintlify_schedule import claim_due_imports, run_due_imports
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.fake_mintlify import FakeMintlify, Refusal, running
from tests.integration.public.servers import ROOT, _hearken, server_env
from tests.local_http import local_http
from tests.server_processes import free_port, stop, wait_until_up

API_KEY = "mint_schedule_key"
SECRET_KEY = "test-secret-key-for-the-suite"


@pytest.fixture
def fake() -> Iterator[FakeMintlify]:
    with running(FakeMintlify(project_id="proj_docs", api_key=API_KEY)) as server:
        yield server


async def due_integration(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings, tenant: Tenant
) -> None:
    async with unit_of_work(session_maker) as session:
        integration = await MintlifyIntegrations(
            session, operator_scope(tenant.org_id), tenant.project, settings
        ).enable("proj_docs", API_KEY)
        await session.execute(
            update(MintlifyIntegration)
            .where(MintlifyIntegration.id == integration.id)
            .values(next_sync_at=utc_now() - timedelta(seconds=1))
        )
        await session.commit()


async def stored(session_maker: async_sessionmaker[AsyncSession]) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(FeedbackItem)) or 0)


async def test_of_many_racing_claims_one_wins(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    await due_integration(session_maker, settings, tenant)
    claims = await asyncio.gather(*(claim_due_imports(session_maker, settings) for _ in range(8)))
    assert sorted(len(ids) for ids in claims) == [0] * 7 + [1]
    assert await claim_due_imports(session_maker, settings) == []  # not due again before an interval


async def test_a_due_import_runs_and_a_failure_is_kept_for_next_time(
    database_url: str, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, fake: FakeMintlify
) -> None:
    settings = Settings(
        embeddings="off", database_url=database_url, secret_key=SECRET_KEY, mintlify_api_url=fake.url
    )
    fake.add(3)
    await due_integration(session_maker, settings, tenant)
    fake.refuse_next(Refusal(status=429, headers={"Retry-After": "7200"}))
    await run_due_imports(session_maker, settings)  # does not raise
    async with unit_of_work(session_maker) as session:
        integration = await session.scalar(select(MintlifyIntegration))
        assert integration is not None and integration.last_error and "429" in integration.last_error
        assert integration.next_sync_at > utc_now() + timedelta(
            seconds=7000
        )  # Retry-After beyond the interval
    async with unit_of_work(session_maker) as session:
        await session.execute(
            update(MintlifyIntegration).values(next_sync_at=utc_now() - timedelta(seconds=1))
        )
        await session.commit()
    await run_due_imports(session_maker, settings)
    assert await stored(session_maker) == 3


@pytest.mark.postgres
async def test_two_server_processes_import_a_due_integration_once(
    database_url: str,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    fake: FakeMintlify,
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the cross-process lease is shown on PostgreSQL")
    fake.add(3)
    await due_integration(session_maker, settings, tenant)
    env = server_env(database_url, HEARKEN_MINTLIFY_API_URL=fake.url, HEARKEN_MINTLIFY_SYNC_SECONDS="3600")
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(
            [_hearken(), "run", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for process, port in zip(processes, ports, strict=True):
            wait_until_up(
                process,
                lambda p=port: (
                    local_http.get(f"http://127.0.0.1:{p}/api/v1/ratings", timeout=1).status_code < 500
                ),
            )
        deadline = time.monotonic() + 20
        while await stored(session_maker) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)  # time for a second, wrong import to show up
    finally:
        for process in processes:
            stop(process)
    assert len(fake.requests) == 1
    assert await stored(session_maker) == 3
