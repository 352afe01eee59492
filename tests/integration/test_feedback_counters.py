"""Feedback totals come from counters; after any mix of creates, edits, bulk triage and archiving,
every total the API can report equals a recount of the items."""

from __future__ import annotations

import random
from itertools import product

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackItem, FeedbackSource, FeedbackStatus, FeedbackType
from app.db.transactions import unit_of_work
from app.services.feedback_items import FeedbackFilter, FeedbackItems
from app.services.projects import Projects
from tenants.scope import operator_scope, token_scope
from tests.factories import Tenant


async def test_counted_totals_equal_recounts(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, other_tenant: Tenant
) -> None:
    rng = random.Random(5)
    statuses, types = list(FeedbackStatus), list(FeedbackType)
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        others = FeedbackItems(
            session, operator_scope(other_tenant.project.org_id, "tests"), other_tenant.project
        )
        created = []
        for index in range(60):
            created.append(
                await items.create(
                    message=f"message {index}",
                    type=rng.choice(types),
                    status=rng.choice(statuses),
                    source=rng.choice([FeedbackSource.WIDGET, FeedbackSource.MANUAL]),
                )
            )
        await others.create(message="elsewhere")
        for item in rng.sample(created, 25):
            await items.update(item, {"status": rng.choice(statuses), "type": rng.choice(types)})
        for item in rng.sample(created, 15):
            await items.archive(item)
        await items.archive(created[0])  # twice: counted once
        await items.update_many([i.id for i in rng.sample(created, 20)], {"status": FeedbackStatus.CLOSED})
        await items.update_many([i.id for i in created[:5]], {"archived": False})

        filters = [FeedbackFilter(archived=archived) for archived in (False, True)]
        filters += [
            FeedbackFilter(status=status, type=kind, source=source)
            for status, kind, source in product(
                [None, *statuses[:3]], [None, *types[:3]], [None, FeedbackSource.WIDGET]
            )
        ]
        for where in filters:
            assert where.counter_conditions(tenant.project.id) is not None
            _, total = await items.list(where, page=1, limit=1)
            recount = await session.scalar(
                select(func.count()).select_from(FeedbackItem).where(*where.conditions(tenant.project.id))
            )
            assert total == recount, where

        scope = token_scope(tenant.org_id, "tests", can_write=False)
        counts = await Projects(session, scope).feedback_counts([tenant.project])
        live = await session.scalar(
            select(func.count())
            .select_from(FeedbackItem)
            .where(FeedbackItem.project_id == tenant.project.id, FeedbackItem.archived.is_(False))
        )
        assert counts[tenant.project.id] == live
