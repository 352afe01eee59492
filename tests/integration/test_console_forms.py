"""Console forms whose field is sent once per ticked box read one tick as a list of one, as they read
several."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User, WebhookEndpoint
from tests.console_helpers import Console
from tests.factories import Tenant


async def test_a_webhook_with_one_ticked_event_listens_to_that_event(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.login(owner.email)
    added = await console.post(
        "/webhooks", {"url": "https://hooks.example.com/in", "events": "feedback.created"}
    )
    assert added.status_code == 200
    async with session_maker() as session:
        (endpoint,) = (await session.scalars(select(WebhookEndpoint))).all()
    assert list(endpoint.events) == ["feedback.created"]
