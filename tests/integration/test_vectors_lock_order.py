"""Writers of many vectors at once (the embedding writer, a purge of items, a themes store, a project's
deletion) take the rows in id order on PostgreSQL, after the project's insights row where they take it,
so two of them on the same rows wait for each other instead of deadlocking: a deadlock fails one of
them, and when that is a purge, a deletion or a bulk change the client gets 503. The embedding writer
wrote a job's vectors in the order its read returned them; cascades and a themes store's UPDATEs take
them in the order their scan meets them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import numpy as np
import pytest
from sqlalchemy import Update, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.models import FeedbackEmbedding, FeedbackItem, ProjectInsight
from app.db.transactions import unit_of_work
from app.insights.clustering import Cluster
from app.insights.jobs import EmbedSender, update_insight
from app.insights.themes import _store
from app.services.feedback_items import FeedbackItems, delete_feedback
from app.services.projects import Projects
from tenants.scope import operator_scope
from tests.factories import Tenant, make_tenant
from tests.lock_waits import (
    Maker,
    emptied_postgres,
    held_while_it_waits,
    move_to_the_end,
    until_waiting_on_a_lock,
)

pytestmark = pytest.mark.postgres

VECTOR = np.array([1.0, 0.0, 0.0], dtype=np.float32)
JOB = uuid7()


@pytest.fixture
async def postgres(postgres_url: str) -> AsyncIterator[tuple[Settings, Maker]]:
    async with emptied_postgres(postgres_url) as sessions:
        yield sessions


async def two_items_with_vectors(session_maker: Maker) -> tuple[Tenant, UUID, UUID]:
    """Two items of one project, each with its vector row and a theme, in id order."""
    tenant = await make_tenant(session_maker)
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.org_id, "tests"), tenant.project)
        ids = sorted([(await items.create(message=f"Item {n}")).id for n in range(2)])
        await update_insight(session, tenant.project.id)
    async with unit_of_work(session_maker) as session:  # whether insights are on here or not
        await session.execute(delete(FeedbackEmbedding).where(FeedbackEmbedding.id.in_(ids)))
        session.add_all(
            FeedbackEmbedding(id=ident, project_id=tenant.project.id, job_id=JOB) for ident in ids
        )
    async with unit_of_work(session_maker) as session:
        clusters = [Cluster(members=[0, 1], label="Items", keywords=["item"])]
        await _store(session, tenant.project.id, 1, [ids], clusters)
    return tenant, ids[0], ids[1]


async def writer_paused_after(
    session_maker: Maker, table: str, rows: list[tuple[UUID, UUID, str]]
) -> tuple[asyncio.Task[None], asyncio.Event]:
    """The embedding writer saving `rows` (in this order, as its read returned them), paused after its
    first UPDATE of `table` until the event returned is set; returns once it has paused."""
    paused, resume = asyncio.Event(), asyncio.Event()

    class PausingSession(AsyncSession):
        async def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
            result = await super().execute(statement, *args, **kwargs)
            if isinstance(statement, Update) and statement.table.name == table and not paused.is_set():
                paused.set()
                await resume.wait()
            return result

    pausing = async_sessionmaker(session_maker.kw["bind"], class_=PausingSession, expire_on_commit=False)
    engine = SimpleNamespace(embedder=SimpleNamespace(name="test-embedder"))
    writer = EmbedSender(pausing, engine)  # type: ignore[arg-type]
    saving = asyncio.create_task(writer._save(JOB, rows, [VECTOR] * len(rows), ["en"] * len(rows)))
    await asyncio.wait([saving, asyncio.create_task(paused.wait())], return_when=asyncio.FIRST_COMPLETED)
    assert paused.is_set(), saving.exception()
    return saving, resume


async def purge_items(session_maker: Maker, tenant: Tenant) -> int:
    async with unit_of_work(session_maker) as session:
        return await delete_feedback(session, [FeedbackItem.project_id == tenant.project.id])


async def delete_project(session_maker: Maker, tenant: Tenant) -> None:
    async with unit_of_work(session_maker) as session:
        projects = Projects(session, operator_scope(tenant.org_id, "tests"))
        await projects.delete(await projects.get(str(tenant.project.id)))


async def vectors_left(session_maker: Maker) -> int:
    async with session_maker() as session:
        return int(await session.scalar(select(func.count()).select_from(FeedbackEmbedding)) or 0)


async def test_a_purge_while_the_embedding_writer_saves_the_same_items(
    postgres: tuple[Settings, Maker],
) -> None:
    """The writer saves the later item first and pauses until the purge waits: before, the purge then
    held the first vector (its cascade deletes them in item order) and each waited for the other."""
    _, session_maker = postgres
    tenant, first, second = await two_items_with_vectors(session_maker)
    rows = [(second, tenant.project.id, "Item 1"), (first, tenant.project.id, "Item 0")]
    saving, resume = await writer_paused_after(session_maker, "feedback_embeddings", rows)
    purging = asyncio.create_task(purge_items(session_maker, tenant))
    await until_waiting_on_a_lock(session_maker, purging)
    resume.set()
    await saving  # one of the two raised DeadlockDetected before
    assert await purging == 2
    assert await vectors_left(session_maker) == 0


async def test_a_purge_takes_the_vectors_in_id_order_whatever_order_it_meets_them(
    postgres: tuple[Settings, Maker],
) -> None:
    """The first item (and its vector) is written again, so the purge's scan meets it last: waiting
    for the first vector, the purge holds no lock on the second, which a writer taking both in id order
    could be waiting for."""
    _, session_maker = postgres
    tenant, first, second = await two_items_with_vectors(session_maker)
    async with unit_of_work(session_maker) as session:
        for table in ("feedback_items", "feedback_embeddings"):
            await move_to_the_end(session, table, first)
    held = await held_while_it_waits(
        session_maker, (FeedbackEmbedding.id, first), purge_items(session_maker, tenant),
        [(FeedbackEmbedding.id, second)],
    )  # fmt: skip
    assert held == [False]
    assert await vectors_left(session_maker) == 0


async def test_a_themes_store_takes_the_insights_row_then_the_vectors_in_id_order(
    postgres: tuple[Settings, Maker],
) -> None:
    """As the embedding writer does: waiting for the first vector, a store holds the project's insights
    row (a writer arriving now waits there before touching any vector) and not the second vector."""
    _, session_maker = postgres
    tenant, first, second = await two_items_with_vectors(session_maker)
    async with unit_of_work(session_maker) as session:
        await move_to_the_end(session, "feedback_embeddings", first, indexed="version")

    async def store() -> None:
        async with unit_of_work(session_maker) as session:
            clusters = [Cluster(members=[0, 1], label="Again", keywords=["again"])]
            await _store(session, tenant.project.id, 2, [[first, second]], clusters)

    held = await held_while_it_waits(
        session_maker, (FeedbackEmbedding.id, first), store(),
        [(FeedbackEmbedding.id, second), (ProjectInsight.project_id, tenant.project.id)],
    )  # fmt: skip
    assert held == [False, True]


@pytest.mark.parametrize("paused_after", ["project_insights", "feedback_embeddings"])
async def test_a_project_deleted_while_the_embedding_writer_saves_its_vectors(
    postgres: tuple[Settings, Maker], paused_after: str
) -> None:
    """The writer pauses, holding the project's insights row (and its first vector), until the deletion
    waits: the writer then finishes, and the deletion after it. The deletion's cascades meet the second
    item first; before, they took its vector and then waited for the writer, which waited for them."""
    _, session_maker = postgres
    tenant, first, second = await two_items_with_vectors(session_maker)
    async with unit_of_work(session_maker) as session:
        await move_to_the_end(session, "feedback_items", first)
        await move_to_the_end(session, "feedback_embeddings", first, indexed="version")
    rows = [(first, tenant.project.id, "Item 0"), (second, tenant.project.id, "Item 1")]
    saving, resume = await writer_paused_after(session_maker, paused_after, rows)
    deleting = asyncio.create_task(delete_project(session_maker, tenant))
    await until_waiting_on_a_lock(session_maker, deleting)
    resume.set()
    await saving
    await deleting
    assert await vectors_left(session_maker) == 0


async def test_a_project_deletion_takes_its_vectors_in_id_order_whatever_order_it_meets_them(
    postgres: tuple[Settings, Maker],
) -> None:
    """As a purge does (a backfill or a bulk change writes vectors without the insights row)."""
    _, session_maker = postgres
    tenant, first, second = await two_items_with_vectors(session_maker)
    async with unit_of_work(session_maker) as session:
        await move_to_the_end(session, "feedback_items", first)
        await move_to_the_end(session, "feedback_embeddings", first, indexed="version")
    held = await held_while_it_waits(
        session_maker, (FeedbackEmbedding.id, first), delete_project(session_maker, tenant),
        [(FeedbackEmbedding.id, second)],
    )  # fmt: skip
    assert held == [False]
    assert await vectors_left(session_maker) == 0
