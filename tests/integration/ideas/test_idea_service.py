"""The ideas service on both databases: votes counted once per person and taken back, a merge that
moves votes and counts a person once, and the kept counts matching a recount."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Idea, IdeaVote
from app.dependencies import build
from app.ideas.bodies import IdeaCreateBody, IdeaPatchBody
from app.ideas.people import Person
from app.ideas.service import Ideas
from tenants.scope import operator_scope
from tests.factories import Tenant

ANN, BOB, CY = Person.of_user("ann"), Person.of_user("bob"), Person.of_user("cy")


async def test_votes_merge_and_counts(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, settings: Settings
) -> None:
    async with session_maker() as session, session.begin():
        ideas = build(Ideas, session, operator_scope(tenant.org_id), tenant.project, settings)
        dark = await ideas.create(IdeaCreateBody(title="Dark mode", tags=["UI", "ui "]))
        night = await ideas.create(IdeaCreateBody(title="Night theme"))
        assert (await ideas.tags_of([dark]))[dark.id] == ["ui"]
        assert await ideas.vote(dark, ANN) and not await ideas.vote(dark, ANN)
        await ideas.vote(dark, BOB)
        await ideas.vote(night, BOB)
        await ideas.vote(night, CY)
        assert await ideas.unvote(night, CY) and not await ideas.unvote(night, CY)
        await ideas.vote(night, CY)
        assert (dark.vote_count, night.vote_count) == (2, 2)
        target = await ideas.merge(night, dark.id)
        assert target.vote_count == 3 and night.merged_into_id == dark.id
        listed, total = await ideas.list(team=True)
        assert [idea.title for idea in listed] == ["Dark mode"] and total == 1
        fresh = await ideas.create(IdeaCreateBody(title="Fresh"))
        await ideas.vote(fresh, ANN)
        for sort in ("top", "new", "trending"):
            listed, total = await ideas.list(team=True, sort=sort)
            assert total == 2 and {idea.title for idea in listed} == {"Dark mode", "Fresh"}, sort
        assert (await ideas.list(team=True, page=2, limit=2))[1] == 2  # past the end: counted alone
        await ideas.update(dark, IdeaPatchBody(status="planned", response="Coming in May"))
    async with session_maker() as session:
        recount = await session.scalar(
            select(func.count()).select_from(IdeaVote).where(IdeaVote.idea_id == dark.id)
        )
        kept = await session.scalar(select(Idea.vote_count).where(Idea.id == dark.id))
        assert recount == kept == 3
