"""The alert rules on synthetic counters with fixed clocks: a page's helpful share that falls opens one
alert, which further evidence updates, which resolves a day after the page is back, and the next drop is
a new episode; negative answers beyond their baseline share; a theme that surges; each with its events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.alerts.checks import check_project
from app.db.models import Alert, FeedbackEmbedding, FeedbackItem, Project, Theme, WebhookDelivery
from app.db.transactions import unit_of_work
from tests.alert_counts import count_answers
from tests.factories import Tenant

NOW = datetime(2026, 6, 30, 15, 0, tzinfo=UTC)
PAGE = "/docs/install"
DROP = "rating_drop"


async def check(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, now: datetime, kind: str | None = None
) -> list[Alert]:
    """The project's checks at `now`; its alerts (of this kind) after."""
    async with unit_of_work(session_maker) as session:
        project = await session.get_one(Project, tenant.project.id)
        await check_project(session, project, now)
    async with session_maker() as session:
        alerts = await session.scalars(select(Alert).order_by(Alert.opened_at))
        return [alert for alert in alerts if kind in (None, alert.kind)]


async def helpful_days(
    session_maker: async_sessionmaker[AsyncSession],
    project_id: UUID,
    last: datetime,
    days: int,
    yes: int,
    no: int,
) -> None:
    async with unit_of_work(session_maker) as session:
        for back in range(days):
            when = last - timedelta(days=back)
            await count_answers(
                session, project_id, when, {("helpful", 1): yes, ("helpful", 0): no}, path=PAGE
            )


async def webhook_events(session_maker: async_sessionmaker[AsyncSession]) -> list[str]:
    async with session_maker() as session:
        return list(
            await session.scalars(select(WebhookDelivery.event_type).order_by(WebhookDelivery.created_at))
        )


async def subscribe(client, tenant: Tenant) -> None:  # type: ignore[no-untyped-def]
    answer = await client.post(
        "/api/v1/webhooks",
        headers=tenant.headers,
        json={"url": "https://hooks.example.com/alerts", "events": ["alert.opened", "alert.resolved"]},
    )
    assert answer.status_code == 201, answer.text


async def test_a_helpful_drop_is_one_episode_that_updates_resolves_and_reopens(
    client, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:  # type: ignore[no-untyped-def]
    await subscribe(client, tenant)
    pid = tenant.project.id
    await helpful_days(session_maker, pid, NOW - timedelta(days=2), 28, yes=32, no=8)  # 80 % helpful
    assert await check(session_maker, tenant, NOW) == []
    async with unit_of_work(session_maker) as session:
        item = FeedbackItem(project_id=pid, message="The install command fails on macOS", path=PAGE)
        session.add(item)
    await helpful_days(session_maker, pid, NOW, 1, yes=12, no=28)  # today: 30 %

    (alert,) = await check(session_maker, tenant, NOW)
    assert alert.kind == "rating_drop" and alert.status == "open"
    assert alert.subject == {"path": PAGE}
    assert alert.title == f"Helpful on {PAGE} fell from 80 % to 30 %"
    assert alert.before == pytest.approx(0.8) and alert.after == pytest.approx(0.3)
    assert alert.p_value < 0.01
    assert [e["message"] for e in alert.examples] == ["The install command fails on macOS"]
    assert alert.evidence["unit"] == "share" and len(alert.evidence["series"]) == 14

    await helpful_days(session_maker, pid, NOW + timedelta(hours=1), 1, yes=0, no=40)  # worse still
    (updated,) = await check(session_maker, tenant, NOW + timedelta(hours=1), DROP)
    assert updated.id == alert.id and updated.after == pytest.approx(12 / 80)

    # Back to 80 %: it stays open until a day has passed with the page within its baseline.
    t1 = NOW + timedelta(days=1, hours=2)
    await helpful_days(session_maker, pid, t1, 1, yes=200, no=50)
    assert [a.status for a in await check(session_maker, tenant, t1, DROP)] == [
        "open"
    ]  # yesterday still weighs
    t2 = NOW + timedelta(days=2, hours=1)
    await helpful_days(session_maker, pid, t2, 1, yes=200, no=50)
    assert [a.status for a in await check(session_maker, tenant, t2, DROP)] == ["open"]  # back, for 23 hours
    t3 = t1 + timedelta(hours=25)
    (resolved,) = await check(session_maker, tenant, t3, DROP)
    assert resolved.status == "resolved" and resolved.resolved_at == t3

    again = t3 + timedelta(hours=1)
    await helpful_days(session_maker, pid, again, 1, yes=5, no=150)
    first, second = await check(session_maker, tenant, again, DROP)
    assert (first.id, first.status) == (alert.id, "resolved")
    assert second.status == "open" and second.id != alert.id
    events = await webhook_events(session_maker)
    assert events.count("alert.opened") >= 2 and "alert.resolved" in events


async def test_negative_answers_beyond_their_share_spike(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    pid = tenant.project.id
    async with unit_of_work(session_maker) as session:
        for back in range(1, 29):  # 10 % of 5-star answers are 1 or 2 stars
            when = NOW - timedelta(days=back)
            await count_answers(session, pid, when, {("star", 5): 90, ("star", 1): 10}, scale=5)
    hour = NOW - timedelta(hours=3)
    for _ in range(3):  # quiet hours: 1 negative in 10
        async with unit_of_work(session_maker) as session:
            await count_answers(session, pid, hour, {("star", 4): 9, ("star", 2): 1}, scale=5)
        assert await check(session_maker, tenant, hour) == []
        hour += timedelta(hours=1)
    async with unit_of_work(session_maker) as session:  # then 12 of 20 answers negative in an hour
        await count_answers(session, pid, hour, {("star", 4): 8, ("star", 1): 12}, scale=5)
    (alert,) = await check(session_maker, tenant, hour)
    assert alert.kind == "negative_spike" and alert.subject == {}
    assert alert.before == pytest.approx(0.1) and alert.after == pytest.approx(0.6)
    assert alert.title.startswith("Negative answers rose to 12 of 20 (60 %)")


async def test_a_theme_that_surges_opens_an_alert_with_its_items(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    pid = tenant.project.id
    async with unit_of_work(session_maker) as session:
        theme = Theme(
            id=uuid7(), project_id=pid, label="The login page times out every single morning around nine",
            name="Login, times out", keywords=["login", "timeout"],
        )  # fmt: skip
        session.add(theme)
        moments = [NOW - timedelta(days=d) for d in (20, 10)] + [
            NOW - timedelta(hours=h) for h in range(1, 8)
        ]
        for index, moment in enumerate(moments):
            item = FeedbackItem(
                id=uuid7(), project_id=pid, message=f"login timed out {index}", created_at=moment
            )
            session.add(item)
            await session.flush()
            session.add(FeedbackEmbedding(id=item.id, project_id=pid, theme_id=theme.id))
    (alert,) = await check(session_maker, tenant, NOW)
    assert alert.kind == "theme_surge"
    assert alert.subject == {
        "theme_id": str(theme.id), "name": "Login, times out", "label": theme.label,
    }  # fmt: skip
    assert alert.title.startswith("Login, times out: 7 items in")  # the name, not one member's sentence
    assert alert.after == 7 and alert.before == pytest.approx(2 / 28, abs=0.001)
    assert [e["message"] for e in alert.examples] == [f"login timed out {i}" for i in (2, 3, 4)]


async def themed_items(
    session_maker: async_sessionmaker[AsyncSession], theme: Theme, moments: list[datetime]
) -> None:
    async with unit_of_work(session_maker) as session:
        if await session.get(Theme, theme.id) is None:
            session.add(theme)
        for index, moment in enumerate(moments):
            item = FeedbackItem(
                id=uuid7(), project_id=theme.project_id, message=f"{theme.label} {index}", created_at=moment
            )
            session.add(item)
            await session.flush()
            session.add(FeedbackEmbedding(id=item.id, project_id=theme.project_id, theme_id=theme.id))


def every(first: datetime, step: timedelta, count: int) -> list[datetime]:
    return [first + step * i for i in range(count)]


async def test_a_sudden_surge_shows_in_three_hours_before_the_day_does(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """Five items a day for four weeks; then 8 in the last three hours. The day window (10 items against
    5 a day) is no surge; the three hours (8 against 1.25 at the busiest hours) are."""
    theme = Theme(id=uuid7(), project_id=tenant.project.id, label="Export fails", keywords=["export"])
    await themed_items(session_maker, theme, every(NOW - timedelta(days=29), timedelta(hours=4.8), 140))
    await themed_items(session_maker, theme, [NOW - timedelta(hours=h) for h in (20, 10)])
    assert await check(session_maker, tenant, NOW - timedelta(hours=3)) == []
    await themed_items(session_maker, theme, every(NOW - timedelta(minutes=170), timedelta(minutes=20), 8))

    (alert,) = await check(session_maker, tenant, NOW)
    assert alert.kind == "theme_surge" and alert.after == 10
    assert alert.title == "“Export fails”: 8 items in 3 hours, against 5.0 a day before"
    assert alert.p_value < 0.001
    # The surge goes on: the same episode, updated.
    await themed_items(session_maker, theme, every(NOW + timedelta(minutes=5), timedelta(minutes=10), 6))
    (same,) = await check(session_maker, tenant, NOW + timedelta(hours=1))
    assert same.id == alert.id and same.after == 16


async def test_a_themes_last_surge_is_no_part_of_the_baseline_for_its_next(
    session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """Half an item a day, and a surge of 30 items ten days ago that had its alert: 7 items today are a
    surge against the half a day, though not against the 28 days' mean with the last surge in it."""
    pid = tenant.project.id
    theme = Theme(id=uuid7(), project_id=pid, label="Search is slow", keywords=["search"])
    await themed_items(session_maker, theme, every(NOW - timedelta(days=29), timedelta(days=2), 14))
    surge = NOW - timedelta(days=10)
    await themed_items(session_maker, theme, every(surge, timedelta(minutes=12), 30))
    (first,) = await check(session_maker, tenant, surge + timedelta(hours=2))
    (unsettled,) = await check(session_maker, tenant, surge + timedelta(hours=7))  # over, but in the day
    (resolved,) = await check(session_maker, tenant, surge + timedelta(hours=31))
    assert first.id == unsettled.id == resolved.id and resolved.status == "resolved"

    await themed_items(session_maker, theme, every(NOW - timedelta(hours=22), timedelta(hours=3), 7))
    _, alert = await check(session_maker, tenant, NOW)
    assert alert.status == "open" and alert.id != first.id and alert.after == 7
    episode = timedelta(days=1, hours=5)  # from a day before it opened to its last hour unsettled
    assert alert.before == pytest.approx(14 / (28 - episode / timedelta(days=1)), abs=0.001)
