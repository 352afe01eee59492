"""Message ids follow the order of commits within a conversation: a writer waits for the conversation's
row lock, held by another until it commits, before its message takes an id. So a reader who saw message N
(a poll, a Server-Sent Events stream) misses nothing by asking for the messages after N."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.conversations.threads import add_message
from app.db.models import Conversation, Sender
from app.db.transactions import unit_of_work
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.lock_waits import until_waiting_on_a_lock


async def test_a_message_stored_second_gets_the_larger_id(
    database_url: str, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("one SQLite writer at a time: commits cannot interleave there")
    async with unit_of_work(session_maker) as session:
        item = await FeedbackItems(session, operator_scope(tenant.org_id, "tests"), tenant.project).create(
            message="Signed", submitted_by="user_ada", submitted_by_verified=True
        )
        conversation_id = await session.scalar(
            select(Conversation.id).where(Conversation.feedback_id == item.id)
        )

    async def load(session: AsyncSession) -> Conversation:
        found = await session.get(Conversation, conversation_id)
        assert found is not None
        return found

    first = session_maker()
    second = session_maker()
    try:
        early = await add_message(first, await load(first), Sender.TEAM, "first, committed last")
        waiting = asyncio.create_task(add_message(second, await load(second), Sender.PERSON, "second"))
        await until_waiting_on_a_lock(session_maker, waiting)
        assert not waiting.done()  # it waits for the first transaction
        await first.commit()
        late = await waiting
        await second.commit()
        assert late.id > early.id
    finally:
        await first.close()
        await second.close()
