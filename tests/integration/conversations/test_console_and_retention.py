"""The console's conversation on a contact message's page: shown (and read by the team), answered by a
member through the form (CSRF checked), a blank answer refused beside the field, the person's text shown
as text; retention and purge take conversations with their subjects."""

from __future__ import annotations

from datetime import timedelta

from litestar.testing import AsyncTestClient
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, Conversation, ConversationMessage, User
from app.services.retention import apply_retention
from app.timestamps import utc_now
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant
from tests.integration.conversations.helpers import (
    Person,
    identity_secret,
    mine,
    signed_contact,
    signed_feedback,
)


async def test_a_member_answers_on_the_contact_messages_page(
    client: AsyncTestClient, console: Console, tenant: Tenant, owner: User
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_contact(client, ada, "Where is my <b>invoice</b>?", "ada@visitor.example")
    (thread,) = await mine(client, ada)
    await console.login(owner.email)
    page = await console.get(f"/projects/{tenant.project_id}/contact/{thread['subject']['id']}")
    assert page.status_code == 200
    assert 'id="conversation"' in page.text and "Where is my &lt;b&gt;invoice&lt;/b&gt;?" in page.text

    url = f"/projects/{tenant.project_id}/conversations/{thread['id']}/messages"
    forged = await console.client.post(url, data={"message": "no token"})
    assert forged.status_code == 403
    blank = await console.htmx_post(url, {"message": "  "})
    assert blank.status_code == 400 and errors_in(blank.text) == ["Write a message first"]
    answered = await console.htmx_post(url, {"message": "It is attached."})
    assert answered.status_code == 200 and "It is attached." in answered.text
    polled = await console.get(url, headers={"HX-Request": "true"})
    assert polled.status_code == 200 and polled.text.count("<li") == 2
    (seen,) = await mine(client, ada)
    assert [m["from"] for m in seen["messages"]] == ["person", "team"] and seen["unread"] == 1


async def test_retention_takes_conversations_with_their_subjects(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, ada, "Old feedback")
    await signed_contact(client, ada, "Old question", "ada@visitor.example")
    long_ago = utc_now() - timedelta(days=90)
    async with session_maker() as session:
        await session.execute(update(ContactMessage).values(created_at=long_ago))
        await session.commit()
    await apply_retention(session_maker, tenant.project.id, 30, utc_now())
    (left,) = await mine(client, ada)
    assert left["subject"]["kind"] == "feedback"
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(Conversation)) == 1
        assert await session.scalar(select(func.count()).select_from(ConversationMessage)) == 1
