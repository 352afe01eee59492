"""The ratings' intake: submissions that arrive together are judged by one budget call and stored by one
commit, and each still gets its own answer."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.db.cache_generation import cache_generation
from app.db.identity_secret import identity_box
from app.db.models import ALL_PATHS, Rating, RatingCounter
from app.db.transactions import unit_of_work
from app.errors import NotFound, OriginNotAllowed, RateLimited, Unavailable
from app.ingest import NewRating, RatingInput
from app.ingest.batches import rating_batches
from app.ingest.budgets import MemoryCounters, RateLimiter
from app.ingest.gate import PublicGate, Visit
from app.ingest.group_commit import RatingGroupCommit
from app.ingest.intake import RatingIntake
from app.ingest.project_directory import ProjectDirectory
from app.ingest.rating_rows import Row
from app.ingest.sqlite_batches import SqliteRatingBatches
from tests.factories import Tenant

ALLOWED = "https://site.example"


def helpful(value: bool, path: str = "/a") -> RatingInput:
    return RatingInput(rating_type="helpful", value=int(value), path=path)


def visit(project_key: uuid.UUID, address: str = "203.0.113.1", origin: str | None = ALLOWED) -> Visit:
    scope: Any = {}
    return Visit(scope, "rating", project_key, address, origin)


class CountingCommit(RatingGroupCommit):
    """The real group commit, counting its transactions."""

    transactions = 0

    async def write(self, batch: Sequence[Row]) -> list[NewRating | BaseException]:
        self.transactions += 1
        return await super().write(batch)


@pytest.fixture
async def intake(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[RatingIntake]:
    limiter = RateLimiter(
        MemoryCounters(cache_generation(settings)), "secret", RateLimit(30, 60), RateLimit(100_000, 60)
    )
    gate = PublicGate(settings, ProjectDirectory(session_maker, identity_box(settings.secret_key)), limiter)
    intake = RatingIntake(gate, CountingCommit(rating_batches(settings)))
    yield intake
    await intake.close()


async def count(session_maker: async_sessionmaker[AsyncSession], *where: Any) -> int:
    async with unit_of_work(session_maker) as session:
        return int(await session.scalar(select(func.count()).select_from(Rating).where(*where)) or 0)


async def test_concurrent_submissions_share_transactions_and_are_all_stored_and_counted(
    intake: RatingIntake, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    key = tenant.project.key
    results = await asyncio.gather(
        *(
            intake.submit(visit(key, f"203.0.113.{i % 250}"), helpful(i % 3 != 0, f"/p{i % 4}"))
            for i in range(300)
        )
    )
    assert len({r.id for r in results}) == 300
    assert intake._group_commit.transactions < 300 / 5  # type: ignore[attr-defined]
    async with unit_of_work(session_maker) as session:
        counted = await session.scalar(
            select(func.sum(RatingCounter.count)).where(
                RatingCounter.project_id == tenant.project.id, RatingCounter.path == ALL_PATHS
            )
        )
        helpful_count = await session.scalar(
            select(func.sum(RatingCounter.count)).where(
                RatingCounter.project_id == tenant.project.id,
                RatingCounter.path == ALL_PATHS,
                RatingCounter.value == 1,
            )
        )
    assert await count(session_maker, Rating.project_id == tenant.project.id) == counted == 300
    assert helpful_count == 200


async def test_each_submission_in_a_batch_gets_its_own_answer(
    intake: RatingIntake, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """Refusals (404, 403, 429) in a batch fail only their own request; the others are stored."""
    key = tenant.project.key
    submissions = [
        (visit(key, "198.51.100.1"), helpful(True)),
        (visit(uuid.uuid4()), helpful(True)),
        (visit(key, origin="https://evil.example"), helpful(True)),
        *((visit(key, "198.51.100.7"), helpful(False)) for _ in range(31)),  # the 31st is over budget
        (visit(key, "198.51.100.2", origin=None), helpful(False)),  # no Origin: a server-side call
    ]
    outcomes = await asyncio.gather(*(intake.submit(v, r) for v, r in submissions), return_exceptions=True)
    assert isinstance(outcomes[0], NewRating)
    assert isinstance(outcomes[1], NotFound)
    assert isinstance(outcomes[2], OriginNotAllowed)
    assert all(isinstance(o, NewRating) for o in outcomes[3:33])
    assert isinstance(outcomes[33], RateLimited)
    assert isinstance(outcomes[34], NewRating)
    assert submissions[2][0].scope["hearken.cors_allowed"] is False  # type: ignore[typeddict-item]
    assert submissions[0][0].scope["hearken.cors_allowed"] is True  # type: ignore[typeddict-item]
    assert intake._group_commit.transactions < 5  # type: ignore[attr-defined]
    stored = await count(session_maker, Rating.project_id == tenant.project.id)
    assert stored == sum(isinstance(o, NewRating) for o in outcomes) == 32


async def test_when_the_batch_cannot_be_committed_every_admitted_request_in_it_fails(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    limiter = RateLimiter(
        MemoryCounters(cache_generation(settings)), "secret", RateLimit(30, 60), RateLimit(100_000, 60)
    )
    gate = PublicGate(settings, ProjectDirectory(session_maker, identity_box(settings.secret_key)), limiter)
    unreachable = SqliteRatingBatches("sqlite+aiosqlite:////nonexistent-folder/hearken.db")
    intake = RatingIntake(gate, RatingGroupCommit(unreachable))
    outcomes = await asyncio.gather(
        *(intake.submit(visit(tenant.project.key, f"198.51.100.{i}"), helpful(True)) for i in range(10)),
        intake.submit(visit(uuid.uuid4()), helpful(True)),
        return_exceptions=True,
    )
    await intake.close()
    assert all(isinstance(o, Unavailable) for o in outcomes[:10])
    assert isinstance(outcomes[10], NotFound)
