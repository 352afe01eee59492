"""The feedback service as the console inbox uses it: one filter, bulk changes, history per item."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.services.feedback_items import FeedbackFilter, FeedbackItems
from tenants.scope import operator_scope
from tests.factories import Tenant, add_project


async def test_bulk_change_records_history_per_item_and_skips_other_projects(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    sibling = await add_project(session_maker, tenant, name="Sibling")
    async with unit_of_work(session_maker) as session:
        inbox = FeedbackItems(
            session, operator_scope(tenant.project.org_id, "owner@example.org"), tenant.project
        )
        first = await inbox.create(message="one")
        second = await inbox.create(message="two", status="Active")
        elsewhere = await FeedbackItems(
            session, operator_scope(sibling.org_id, "owner@example.org"), sibling
        ).create(message="three")
        changed = await inbox.update_many([first.id, second.id, elsewhere.id], {"status": "Active"})
        assert [item.id for item in changed] == [first.id, second.id]
        assert [(c.field, c.from_value, c.to_value) for c in await inbox.history(first)] == [
            ("status", "New", "Active")
        ]
        assert await inbox.history(second) == []
    async with unit_of_work(session_maker) as session:
        untouched = await FeedbackItems(session, operator_scope(sibling.org_id, "x"), sibling).get(
            elsewhere.id
        )
        assert untouched.status == "New"


async def test_one_filter_serves_list_and_query(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    async with unit_of_work(session_maker) as session:
        inbox = FeedbackItems(
            session, operator_scope(tenant.project.org_id, "owner@example.org"), tenant.project
        )
        bug = await inbox.create(message="Broken link", type="Bug")
        await inbox.create(message="Nice", type="Praise")
        archived_bug = await inbox.create(message="Old broken thing", type="Bug")
        await inbox.archive(archived_bug)
        where = FeedbackFilter(type="Bug", search="BROKEN")
        items, total = await inbox.list(where)
        assert ([i.id for i in items], total) == ([bug.id], 1)
        assert [i.id for i in await session.scalars(inbox.query(where))] == [bug.id]
        restored = await inbox.list(FeedbackFilter(archived=True))
        assert ([i.id for i in restored[0]], restored[1]) == ([archived_bug.id], 1)
