"""Pages ranked by "not helpful" votes, from the counters: archived votes and other projects left out."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Rating
from app.db.transactions import unit_of_work
from app.ingest import add_ratings, archive_rating, helpful_input
from app.schemas.rating_requests import HelpfulRatingBody
from app.services.helpful_pages import HelpfulPages, PageVotes
from tenants.scope import operator_scope
from tests.factories import Tenant


async def vote(session: AsyncSession, tenant: Tenant, path: str, *values: bool) -> list[Rating]:
    rows = await add_ratings(
        session, [(tenant.project.id, helpful_input(HelpfulRatingBody(value=v, path=path))) for v in values]
    )
    await session.commit()
    return list(rows)


async def test_pages_ranked_by_not_helpful_votes(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, other_tenant: Tenant
) -> None:
    async with unit_of_work(session_maker) as session:
        await vote(session, tenant, "/install", False, False, True)
        await vote(session, tenant, "/faq", False, True, True, True)
        await vote(session, tenant, "/home", True)
        archived = await vote(session, tenant, "/faq", False, False)
        for rating in archived:
            await archive_rating(session, rating)
        await session.commit()
        await vote(session, other_tenant, "/install", False, False, False)
        ranked = await HelpfulPages(session, operator_scope(tenant.org_id), tenant.project).most_not_helpful()
    assert ranked == [PageVotes("/install", 2, 1), PageVotes("/faq", 1, 3)]
    assert ranked[1].percentage == 75.0
