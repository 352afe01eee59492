"""Erasure and retention cover the portal: a person's ideas, votes and comments go (by user id and by
address), the counts of the ideas that stay are recounted; a project's old ideas and comments go with its
retention."""

from __future__ import annotations

from datetime import timedelta

from litestar.testing import AsyncTestClient
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Idea, IdeaComment
from app.db.transactions import unit_of_work
from app.services.retention import apply_retention
from app.timestamps import utc_now
from tests.factories import Tenant
from tests.integration.ideas.conftest import open_board


async def test_erasure_and_retention_cover_ideas_votes_and_comments(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    board = await open_board(client, tenant)
    mine = await client.post(f"{board.api}/ideas", params=board.signed("ann"), json={"title": "Ann's idea"})
    theirs = (
        await client.post(f"{board.api}/ideas", params=board.signed("bob"), json={"title": "Bob's"})
    ).json()
    ann = board.bearer("ann", "Ann@Example.org")
    await client.put(f"{board.api}/ideas/{mine.json()['id']}/vote", params=board.signed("bob"))
    await client.put(f"{board.api}/ideas/{theirs['id']}/vote", headers=ann)
    await client.put(f"{board.api}/ideas/{theirs['id']}/vote", params=board.signed("cy"))
    await client.post(f"{board.api}/ideas/{theirs['id']}/comments", headers=ann, json={"body": "Me too"})
    await client.post(
        f"{board.api}/ideas/{theirs['id']}/comments", params=board.signed("cy"), json={"body": "+1"}
    )

    erased = await client.post(
        "/api/v1/privacy/erase", json={"email": "ann@example.org"}, headers=tenant.headers
    )
    assert erased.status_code == 200
    assert {k: erased.json()[k] for k in ("ideas", "idea_votes", "idea_comments")} == {
        "ideas": 0,
        "idea_votes": 1,
        "idea_comments": 1,
    }  # Ann's suggestion was made by user id only
    erased = await client.post("/api/v1/privacy/erase", json={"submitted_by": "ann"}, headers=tenant.headers)
    assert erased.json()["ideas"] == 1
    left = (await client.get(f"{board.api}/ideas")).json()["ideas"]
    assert [(i["title"], i["votes"], i["comments"]) for i in left] == [("Bob's", 1, 1)]

    await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"retention_days": 30}, headers=tenant.headers
    )
    async with unit_of_work(session_maker) as session:
        old = utc_now() - timedelta(days=31)
        await session.execute(update(IdeaComment).values(created_at=old))
    await apply_retention(session_maker, tenant.project.id, 30, utc_now())
    left = (await client.get(f"{board.api}/ideas")).json()["ideas"]
    assert [(i["title"], i["comments"]) for i in left] == [("Bob's", 0)]
    async with unit_of_work(session_maker) as session:
        await session.execute(update(Idea).values(created_at=utc_now() - timedelta(days=31)))
    await apply_retention(session_maker, tenant.project.id, 30, utc_now())
    assert (await client.get(f"{board.api}/ideas")).json()["ideas"] == []
