"""Retention per project: retention_days set through the API and the console; the periodic job deletes
older feedback, ratings and contact messages in batches, once across processes, counts exact."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import ContactMessage, FeedbackItem, Project, Rating
from app.db.transactions import unit_of_work
from app.ingest import RatingInput, add_ratings, archive_rating
from app.main import create_app
from app.services.feedback_items import FeedbackItems
from app.services.retention import run_due_retention
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.counter_recount import assert_counters_match_rows
from tests.factories import Tenant, add_project

DAYS_AGO = (1, 10, 29, 31, 45, 400)


@pytest.fixture
def settings(database_url: str) -> Settings:
    """These tests run the job themselves: the app's own periodic loop would race them for the lease."""
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        periodic_jobs=False,
    )


async def seed(session_maker: async_sessionmaker[AsyncSession], project: Project, rng: random.Random) -> None:
    now = utc_now()
    async with unit_of_work(session_maker) as session:
        for days in DAYS_AGO:
            moment = now - timedelta(days=days, minutes=rng.randint(0, 600))
            inputs = [
                RatingInput(rating_type="helpful", value=rng.randint(0, 1), path=rng.choice(("/a", None))),
                RatingInput(rating_type="star", value=rng.randint(1, 5), max_stars=5, version="1.0"),
                RatingInput(rating_type="nps", value=rng.randint(0, 10)),
            ]
            stored = await add_ratings(session, [(project.id, i) for i in inputs * 3], created_at=moment)
            await archive_rating(session, stored[0])
            session.add_all(
                ContactMessage(
                    project_id=project.id,
                    name="A",
                    email="a@example.org",
                    message="Hi there",
                    created_at=moment,
                )
                for _ in range(2)
            )
        await session.commit()
        feedback = FeedbackItems(session, operator_scope(project.org_id, "tests"), project)
        for days in DAYS_AGO:
            for n in range(3):
                item = await feedback.create(
                    message=f"{days} days ago",
                    type=rng.choice(("Bug", "Praise")),
                    created_at=now - timedelta(days=days),
                )
                if n == 0:
                    await feedback.update(item, {"status": "Closed"})


async def older_than(
    session_maker: async_sessionmaker[AsyncSession], project: Project, days: int
) -> dict[str, int]:
    cutoff = utc_now() - timedelta(days=days)
    async with session_maker() as session:
        return {
            model.__tablename__: int(
                await session.scalar(
                    select(func.count())
                    .select_from(model)
                    .where(model.project_id == project.id, model.created_at < cutoff)
                )
                or 0
            )
            for model in (FeedbackItem, Rating, ContactMessage)
        }


async def test_the_job_deletes_older_items_in_batches_and_counts_stay_exact(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    rng = random.Random(5)
    keeper = await add_project(session_maker, tenant, name="Keeps everything")
    for project in (tenant.project, keeper):
        await seed(session_maker, project, rng)
    response = await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"retention_days": 30}, headers=tenant.headers
    )
    assert response.status_code == 200 and response.json()["retention_days"] == 30
    old = await older_than(session_maker, tenant.project, 30)
    assert old == {"feedback_items": 9, "ratings": 27, "contact_messages": 6}
    kept_elsewhere = await older_than(session_maker, keeper, 30)

    removed = await run_due_retention(session_maker, batch=4)
    assert [(r.project_id, r.feedback, r.ratings, r.contact_messages) for r in removed] == [
        (tenant.project.id, 9, 27, 6)
    ]
    assert set((await older_than(session_maker, tenant.project, 30)).values()) == {0}
    assert (await older_than(session_maker, tenant.project, 0))["ratings"] == 27  # the younger ones stay
    assert await older_than(session_maker, keeper, 30) == kept_elsewhere
    async with session_maker() as session:
        await assert_counters_match_rows(session)
    stats = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ratings/stats/typed?type=star", headers=tenant.headers
    )
    async with session_maker() as session:
        star = await session.scalar(
            select(func.count())
            .select_from(Rating)
            .where(
                Rating.project_id == tenant.project.id,
                Rating.rating_type == "star",
                Rating.archived.is_(False),
            )
        )
    assert stats.json()["total"] == star
    assert await run_due_retention(session_maker) == []  # claimed for the next hour


async def keep_for(session_maker: async_sessionmaker[AsyncSession], project: Project, days: int) -> None:
    async with unit_of_work(session_maker) as session:
        await session.execute(update(Project).where(Project.id == project.id).values(retention_days=days))


async def test_one_process_claims_a_due_project(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await seed(session_maker, tenant.project, random.Random(1))
    await keep_for(session_maker, tenant.project, 30)
    first, second = await asyncio.gather(run_due_retention(session_maker), run_due_retention(session_maker))
    assert sorted([len(first), len(second)]) == [0, 1]
    (removed,) = first or second
    assert (removed.feedback, removed.ratings, removed.contact_messages) == (9, 27, 6)


@pytest.mark.parametrize("periodic_jobs", [True, False])
async def test_a_server_process_applies_due_retention_at_start_unless_told_not_to(
    settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], periodic_jobs: bool
) -> None:
    await seed(session_maker, tenant.project, random.Random(2))
    await keep_for(session_maker, tenant.project, 30)
    app = create_app(
        Settings(embeddings="off", database_url=settings.database_url, periodic_jobs=periodic_jobs)
    )
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/healthz")).status_code == 200
        deadline = time.monotonic() + (10 if periodic_jobs else 1)
        while any((await older_than(session_maker, tenant.project, 30)).values()):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
    left = await older_than(session_maker, tenant.project, 30)
    if periodic_jobs:
        assert left == {"feedback_items": 0, "ratings": 0, "contact_messages": 0}
    else:
        assert left == {"feedback_items": 9, "ratings": 27, "contact_messages": 6}


async def test_retention_days_rules(client: AsyncTestClient, tenant: Tenant) -> None:
    url = f"/api/v1/projects/{tenant.project_id}"
    for value in (29, 3651, "30", True, 30.5):
        response = await client.patch(url, json={"retention_days": value}, headers=tenant.headers)
        assert response.status_code == 400, value
        assert "retention_days" in response.json()["details"]
    assert (await client.patch(url, json={"retention_days": 3650}, headers=tenant.headers)).json()[
        "retention_days"
    ] == 3650
    cleared = await client.patch(url, json={"retention_days": None}, headers=tenant.headers)
    assert cleared.json()["retention_days"] is None
    renamed = await client.patch(
        url,
        json={"name": "Docs", "allowed_origins": ["https://Docs.Example.com:443/"]},
        headers=tenant.headers,
    )
    assert (renamed.json()["name"], renamed.json()["allowed_origins"]) == (
        "Docs",
        ["https://docs.example.com"],
    )
    assert (
        await client.patch(url, json={"allowed_origins": ["nope"]}, headers=tenant.headers)
    ).status_code == 400
    assert (
        await client.patch(url, json={"retention_days": 60}, headers=tenant.read_headers)
    ).status_code == 403
    log = (await client.get("/api/v1/audit-log", headers=tenant.headers)).json()["entries"]
    assert any(e["details"].get("retention_days") == {"from": None, "to": 3650} for e in log)


async def test_console_keep_data_for_days(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "admin@org-a.example", "admin")
    await console.login("admin@org-a.example")
    page = (await console.get(f"/projects/{tenant.project_id}")).text
    assert "Keep data for (days)" in page
    form = {"name": "Org A docs", "description": ""}
    bad = await console.post(f"/projects/{tenant.project_id}", {**form, "retention_days": "7"})
    assert bad.status_code == 400 and "from 30 to 3650" in bad.text
    saved = await console.post(f"/projects/{tenant.project_id}", {**form, "retention_days": "90"})
    assert saved.status_code == 200 and 'value="90"' in saved.text
    async with session_maker() as session:
        assert (await session.get(Project, tenant.project.id)).retention_days == 90  # type: ignore[union-attr]
    await console.post(f"/projects/{tenant.project_id}", {**form, "retention_days": ""})
    async with session_maker() as session:
        assert (await session.get(Project, tenant.project.id)).retention_days is None  # type: ignore[union-attr]
