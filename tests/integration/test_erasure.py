"""Erasure of one person's data across the organization (POST /privacy/erase and the console's Privacy
page): their feedback, ratings and contact messages gone for good from every project, nobody else's,
and every counter and statistic equal to a recount of what is left."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import false, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, FeedbackItem, Project, Rating
from app.db.transactions import unit_of_work
from app.ingest import RatingInput, add_ratings, archive_rating
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.timestamps import utc_now
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.counter_recount import assert_counters_match_rows
from tests.factories import Tenant, add_project

PEOPLE = ("user-1", "user-2", None)


def random_rating(rng: random.Random, submitted_by: str | None) -> RatingInput:
    kind = rng.choice(("helpful", "star", "nps"))
    value = {"helpful": rng.randint(0, 1), "star": rng.randint(1, 5), "nps": rng.randint(0, 10)}[kind]
    reason = {"reason": rng.choice(("inaccurate", "other"))} if kind == "helpful" and not value else None
    return RatingInput(
        rating_type=kind,
        value=value,
        max_stars=5 if kind == "star" else None,
        path=rng.choice((None, "/a", "/b")),
        version=rng.choice((None, "1.0", "2.0")),
        submitted_by=submitted_by,
        custom_data=reason,
    )


async def seed(session_maker: async_sessionmaker[AsyncSession], project: Project, rng: random.Random) -> None:
    """Ratings over several days, some archived; feedback with history, some archived; messages."""
    async with unit_of_work(session_maker) as session:
        now = utc_now()
        for day in range(5):
            items = [(project.id, random_rating(rng, rng.choice(PEOPLE))) for _ in range(12)]
            stored = await add_ratings(
                session, items, created_at=now - timedelta(days=day, hours=rng.randint(0, 20))
            )
            for rating in stored[:2]:
                await archive_rating(session, rating)
        await session.commit()
        feedback = FeedbackItems(session, operator_scope(project.org_id, "tests"), project)
        for n in range(12):
            item = await feedback.create(
                message=f"note {n}", type=rng.choice(("Bug", "Praise")), submitted_by=rng.choice(PEOPLE)
            )
            if n % 3 == 0:
                await feedback.update(item, {"status": "Closed", "archived": n % 2 == 0})
        messages = ContactMessages(session, operator_scope(project.org_id), project)
        for email in ("ada@example.org", "ADA@Example.org", "bob@example.org"):
            await messages.create(name="Someone", email=email, message="Hello there")


async def remaining(
    session_maker: async_sessionmaker[AsyncSession], org_project_ids: list[Any]
) -> dict[str, int]:
    async with unit_of_work(session_maker) as session:
        return {
            "user-1 feedback": int(
                await session.scalar(
                    select(func.count())
                    .select_from(FeedbackItem)
                    .where(
                        FeedbackItem.submitted_by == "user-1", FeedbackItem.project_id.in_(org_project_ids)
                    )
                )
                or 0
            ),
            "user-1 ratings": int(
                await session.scalar(
                    select(func.count())
                    .select_from(Rating)
                    .where(Rating.submitted_by == "user-1", Rating.project_id.in_(org_project_ids))
                )
                or 0
            ),
            "ada messages": int(
                await session.scalar(
                    select(func.count())
                    .select_from(ContactMessage)
                    .where(
                        func.lower(ContactMessage.email) == "ada@example.org",
                        ContactMessage.project_id.in_(org_project_ids),
                    )
                )
                or 0
            ),
        }


async def test_erasure_deletes_one_persons_data_and_counts_stay_exact(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    rng = random.Random(21)
    second = await add_project(session_maker, tenant, name="Second")
    for project in (tenant.project, second, other_tenant.project):
        await seed(session_maker, project, rng)
    ours = [tenant.project.id, second.id]
    before = await remaining(session_maker, ours)
    theirs = await remaining(session_maker, [other_tenant.project.id])
    assert all(before.values()) and all(theirs.values())

    response = await client.post(
        "/api/v1/privacy/erase",
        json={"submitted_by": "user-1", "email": "Ada@example.ORG"},
        headers=tenant.headers,
    )
    assert response.status_code == 200, response.text
    assert response.json() == {
        "feedback": before["user-1 feedback"],
        "ratings": before["user-1 ratings"],
        "contact_messages": before["ada messages"],
        "survey_responses": 0,
        "conversations": 0,
        "ideas": 0,
        "idea_votes": 0,
        "idea_comments": 0,
    }
    assert set((await remaining(session_maker, ours)).values()) == {0}
    assert await remaining(session_maker, [other_tenant.project.id]) == theirs
    async with unit_of_work(session_maker) as session:
        await assert_counters_match_rows(session)
        for project in (tenant.project, second):
            for kind in ("helpful", "star", "nps"):
                stats = (
                    await client.get(
                        f"/api/v1/projects/{project.id}/ratings/stats/typed?type={kind}",
                        headers=tenant.headers,
                    )
                ).json()
                recount = await session.scalar(
                    select(func.count())
                    .select_from(Rating)
                    .where(
                        Rating.project_id == project.id,
                        Rating.rating_type == kind,
                        Rating.archived == false(),
                    )
                )
                assert stats["total"] == recount, (project.name, kind)
            listed = (
                await client.get(f"/api/v1/projects/{project.id}/feedback", headers=tenant.headers)
            ).json()
            recount = await session.scalar(
                select(func.count())
                .select_from(FeedbackItem)
                .where(FeedbackItem.project_id == project.id, FeedbackItem.archived == false())
            )
            assert listed["pagination"]["total"] == recount

    again = await client.post(
        "/api/v1/privacy/erase", json={"submitted_by": "user-1"}, headers=tenant.headers
    )
    assert again.json() == {
        "feedback": 0,
        "ratings": 0,
        "contact_messages": 0,
        "survey_responses": 0,
        "conversations": 0,
        "ideas": 0,
        "idea_votes": 0,
        "idea_comments": 0,
    }
    log = (await client.get("/api/v1/audit-log", headers=tenant.headers)).json()["entries"]
    erasures = [e for e in log if e["action"] == "erasure.performed"]
    assert erasures[-1]["details"] == {"by": ["submitted_by", "email"], **response.json()}
    assert "user-1" not in str(erasures) and "ada@" not in str(erasures).lower()


async def test_erasure_refuses_bad_bodies(client: AsyncTestClient, tenant: Tenant) -> None:
    for body in (
        {},
        {"submitted_by": None, "email": None},
        {"submitted_by": "has space"},
        {"email": "not an email"},
    ):
        response = await client.post("/api/v1/privacy/erase", json=body, headers=tenant.headers)
        assert response.status_code == 400, body
        assert response.json()["error"] == "invalid_request"
    refused = await client.post(
        "/api/v1/privacy/erase", json={"submitted_by": "x"}, headers=tenant.read_headers
    )
    assert refused.status_code == 403


async def test_console_privacy_page_previews_then_erases(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        await FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project).create(
            message="mine", submitted_by="visitor_9"
        )
        await add_ratings(
            session,
            [(tenant.project.id, RatingInput(rating_type="helpful", value=1, submitted_by="visitor_9"))],
        )
        await session.commit()
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    assert (await console.get("/privacy")).status_code == 403
    console.client.cookies.clear()
    await add_user(session_maker, tenant.org_id, "admin@org-a.example", "admin")
    await console.login("admin@org-a.example")
    page = await console.get("/privacy")
    assert page.status_code == 200 and ">Erase</button>" in page.text
    preview = await console.post("/privacy", {"submitted_by": "visitor_9", "email": "", "step": "preview"})
    assert (
        "1 feedback item, 1 rating, 0 contact messages, 0 conversations and 0 survey responses"
        " will be deleted for good" in preview.text
    )
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(func.count()).select_from(FeedbackItem)) == 1
    done = await console.post("/privacy", {"submitted_by": "visitor_9", "email": "", "step": "confirm"})
    assert (
        "Erased 1 feedback item, 1 rating, 0 contact messages, 0 conversations and 0 survey responses."
        in done.text
    )
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(func.count()).select_from(FeedbackItem)) == 0
        await assert_counters_match_rows(session)
    bad = await console.post("/privacy", {"submitted_by": "", "email": "", "step": "preview"})
    assert bad.status_code == 400 and "give submitted_by, email or both" in bad.text
