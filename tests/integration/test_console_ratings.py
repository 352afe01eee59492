"""The ratings page: figures from the statistics service, charts over time, pages to work on first."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from app.db.transactions import unit_of_work
from app.ingest import add_ratings, helpful_input, typed_input
from app.schemas.rating_requests import HelpfulRatingBody, RatingContext, RatingObject, TypedRatingBody
from tests.console_helpers import Console
from tests.factories import Tenant


def typed(kind: str, value: int, path: str = "/") -> TypedRatingBody:
    return TypedRatingBody(rating=RatingObject(type=kind, value=value), context=RatingContext(path=path))  # type: ignore[arg-type]


async def test_ratings_page_shows_every_figure_and_the_pages_to_fix(
    console: Console,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    votes = [("/install", False), ("/install", False), ("/install", True), ("/faq", False), ("/", True)]
    async with unit_of_work(session_maker) as session:
        await add_ratings(
            session,
            [(tenant.project.id, helpful_input(HelpfulRatingBody(value=v, path=p))) for p, v in votes]
            + [(tenant.project.id, typed_input(typed("star", s))) for s in (5, 4, 4)]
            + [(tenant.project.id, typed_input(typed("nps", n))) for n in (10, 9, 8, 3)]
            + [(other_tenant.project.id, helpful_input(HelpfulRatingBody(value=False, path="/secret")))],
        )
        await session.commit()
    await console.login(owner.email)
    page = (await console.get(f"/projects/{tenant.project_id}/ratings")).text
    assert '<p class="big">40.0 %</p>' in page
    assert "2 helpful · 3 not helpful · 5 in all" in page
    assert "4.33" in page and "of 5 · 3 ratings" in page
    assert re.search(
        r'<p class="big">25 <span class="category needs_improvement">needs improvement</span>', page
    )
    assert "2 promoters · 1 passives · 1 detractors" in page
    assert page.count('<rect class="bar') == 3  # today's bucket in each chart
    ranked = re.findall(r"<code>(/[^<]*)</code></a></th><td class=\"num\">(\d+)</td>", page)
    assert ranked == [("/install", "2"), ("/faq", "1")]
    assert "/secret" not in page

    one_page = (await console.get(f"/projects/{tenant.project_id}/ratings", params={"path": "/install"})).text
    assert '<p class="big">33.3 %</p>' in one_page
    weekly = await console.get(f"/projects/{tenant.project_id}/ratings", params={"interval": "week"})
    assert "Helpful % per week" in weekly.text
    bad = await console.get(f"/projects/{tenant.project_id}/ratings", params={"interval": "year"})
    assert bad.status_code == 400


async def test_another_organizations_ratings_are_not_found(
    console: Console, owner: User, other_tenant: Tenant
) -> None:
    await console.login(owner.email)
    assert (await console.get(f"/projects/{other_tenant.project_id}/ratings")).status_code == 404


async def test_cards_without_ratings_say_so_alike(console: Console, owner: User, tenant: Tenant) -> None:
    """No ratings is no average: every card says "No ratings yet" rather than 0.00 of 5 or 0 %."""
    await console.login(owner.email)
    page = (await console.get(f"/projects/{tenant.project_id}/ratings")).text
    cards = re.findall(r'<section class="card" aria-labelledby="(\w+)-title">(.*?)</section>', page, re.S)
    empty = {name for name, card in cards if '<p class="big muted">No ratings yet</p>' in card}
    assert empty == {"helpful", "star", "nps"}
    assert "0.00" not in page and "0 ratings" not in page
