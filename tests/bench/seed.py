"""Seed benchmark data through the application's own write paths (add_ratings, the feedback model)."""

from __future__ import annotations

import random
from datetime import timedelta
from uuid import UUID

from sqlalchemy import create_engine, insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType, Organization, Project
from app.db.rating_partitions import ensure_partitions
from app.db.transactions import unit_of_work
from app.ingest import RatingInput, add_ratings
from app.services.feedback_counters import apply_feedback_counts
from app.services.projects import Projects
from app.timestamps import utc_now
from tenants.access_tokens import AccessTokens
from tenants.scope import operator_scope

ORIGIN = "https://bench.example"


def partition_past_year(url: str) -> None:
    """On PostgreSQL, the months of the past year made, as a database partitioned a year ago has them:
    the seeded ratings spread over them as a year of submissions would."""
    if not url.startswith("postgresql"):
        return
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            ensure_partitions(connection, utc_now() - timedelta(days=366), ahead=16)
    finally:
        engine.dispose()


async def tenant(session_maker: async_sessionmaker[AsyncSession]) -> tuple[str, list[Project]]:
    """An organization with a write token and three projects: small, large ratings, large feedback."""
    async with unit_of_work(session_maker) as session:
        org = Organization(name="Bench")
        session.add(org)
        await session.commit()
        token = (await AccessTokens(session, operator_scope(org.id)).create(label="bench")).token
        projects = Projects(session, operator_scope(org.id, "bench"))
        made = [
            await projects.create(name=name, allowed_origins=[ORIGIN]) for name in ("small", "large", "inbox")
        ]
        return token, made


REASONS = ("inaccurate", "hard_to_understand", "missing_information", "code_sample_wrong", "other")


def _rating(rng: random.Random, version: str) -> RatingInput:
    """A release every month (the version) and a reason with most "No" answers, as the widgets send them."""
    path = f"/docs/page-{rng.randrange(200)}"
    kind = rng.random()
    if kind < 0.6:
        value = int(rng.random() < 0.7)
        reason = {"reason": rng.choice(REASONS)} if not value and rng.random() < 0.6 else None
        return RatingInput(rating_type="helpful", value=value, path=path, version=version, custom_data=reason)
    if kind < 0.85:
        return RatingInput(
            rating_type="star", value=rng.randint(1, 5), max_stars=5, path=path, version=version
        )
    return RatingInput(rating_type="nps", value=rng.randint(0, 10), path=path, version=version)


async def ratings(
    session_maker: async_sessionmaker[AsyncSession], project_id: UUID, count: int, *, days: int = 365
) -> None:
    """`count` ratings spread over the last `days` days, written by add_ratings in batches: small and
    large projects cover the same days, so the statistics compare volume, not time span."""
    rng = random.Random(7)
    batch = min(5000, max(1, count // days))
    now = utc_now()
    for index, start in enumerate(range(0, count, batch)):
        version = f"2.{(days - index % days) // 30}"
        items = [(project_id, _rating(rng, version)) for _ in range(min(batch, count - start))]
        async with unit_of_work(session_maker) as session:
            await add_ratings(session, items, created_at=now - timedelta(days=index % days, minutes=index))
            await session.commit()


async def feedback(session_maker: async_sessionmaker[AsyncSession], project_id: UUID, count: int) -> None:
    """`count` feedback items as the widget stores them (rows and counters), in multi-row inserts."""
    rng = random.Random(11)
    types = list(FeedbackType)
    now = utc_now()
    batch = 5000
    for start in range(0, count, batch):
        rows = []
        for offset in range(min(batch, count - start)):
            moment = now - timedelta(seconds=count - start - offset)
            rows.append(
                {
                    "id": uuid7(),
                    "project_id": project_id,
                    "message": f"Feedback number {start + offset}: the page could explain more.",
                    "status": FeedbackStatus.NEW.value,
                    "type": rng.choice(types).value,
                    "source": FeedbackSource.WIDGET.value,
                    "path": f"/docs/page-{rng.randrange(200)}",
                    "archived": False,
                    "created_at": moment,
                    "updated_at": moment,
                }
            )
        deltas = [((project_id, False, row["status"], row["type"], row["source"]), 1) for row in rows]
        async with unit_of_work(session_maker) as session:
            await session.execute(insert(FeedbackItem), rows)
            await apply_feedback_counts(session, deltas)
            await session.commit()
