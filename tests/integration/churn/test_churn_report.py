"""GET .../churn and its export: the cancellations Stripe and Polar reported, together."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackEmbedding, FeedbackItem, Theme
from app.db.transactions import unit_of_work
from tests.factories import Tenant
from tests.integration.churn.billing_events import connect, polar_cancellation, stripe_cancellation


def churn_url(tenant: Tenant) -> str:
    return f"/api/v1/projects/{tenant.project_id}/churn"


async def arrange(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Two cancellations in September 2026 (Stripe), three in November (two Polar, one Stripe), one
    ordinary feedback item, and a theme holding two of the comments."""
    stripe_url, polar_url = await connect(client, tenant)
    await stripe_cancellation(
        client, stripe_url, "evt_1", "sub_1", feedback="too_expensive", comment="Pricey"
    )
    await stripe_cancellation(client, stripe_url, "evt_2", "sub_2", feedback="unused", comment=None)
    await stripe_cancellation(client, stripe_url, "evt_3", "sub_3", feedback="too_expensive", comment="Costs")
    await polar_cancellation(client, polar_url, "p-1", reason="missing_features", comment="No SSO")
    await polar_cancellation(client, polar_url, "p-2", reason=None, comment="Moving to a rival")
    await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json={"message": "Nice"}, headers=tenant.headers
    )
    months = {
        "Pricey": datetime(2026, 9, 3, 12, tzinfo=UTC),
        "Cancelled: unused": datetime(2026, 9, 20, tzinfo=UTC),
    }
    async with unit_of_work(session_maker) as session:
        theme = Theme(project_id=tenant.project.id, label="Too expensive", keywords=["price", "cost"])
        session.add(theme)
        await session.flush()
        for item in (
            await session.scalars(select(FeedbackItem).where(FeedbackItem.source != "Manual"))
        ).all():
            item.created_at = months.get(item.message, datetime(2026, 11, 10, tzinfo=UTC))
            if item.message in ("Pricey", "Costs"):
                session.add(FeedbackEmbedding(id=item.id, project_id=tenant.project.id, theme_id=theme.id))


async def test_the_report_counts_stripe_and_polar_together(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await arrange(client, tenant, session_maker)
    response = await client.get(
        churn_url(tenant) + "?since=2026-08-01&until=2026-11-30", headers=tenant.read_headers
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["cancellations"] == 5
    assert report["by_reason"] == {"too_expensive": 2, "unused": 1, "missing_features": 1, "not_given": 1}
    assert report["by_month"] == [
        {"month": "2026-08", "cancellations": 0, "change": None},
        {"month": "2026-09", "cancellations": 2, "change": 2},
        {"month": "2026-10", "cancellations": 0, "change": -2},
        {"month": "2026-11", "cancellations": 3, "change": 3},
    ]
    (theme,) = report["themes"]
    assert (theme["label"], theme["keywords"], theme["cancellations"]) == (
        "Too expensive",
        ["price", "cost"],
        2,
    )
    assert len(report["recent"]) == 5
    assert {item["source"] for item in report["recent"]} == {"Stripe", "Polar"}
    assert report["recent"][-1]["created_at"].startswith("2026-09-03")
    assert all(item["reward"] is None for item in report["recent"])
    narrower = await client.get(churn_url(tenant) + "?since=2026-11-01", headers=tenant.headers)
    assert narrower.json()["cancellations"] == 3


async def test_the_export_lists_every_cancellation_as_csv(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await arrange(client, tenant, session_maker)
    response = await client.get(
        churn_url(tenant) + "/export?since=2026-08-01&until=2026-11-30", headers=tenant.read_headers
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    assert "-churn-" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text.lstrip("\ufeff"))))
    assert len(rows) == 5
    assert {row["source"] for row in rows} == {"Stripe", "Polar"}
    assert {row["subscription"] for row in rows} >= {"sub_1", "p-1"}
    assert rows[-1]["reason"] in ("too_expensive", "unused")
    ndjson = await client.get(
        churn_url(tenant) + "/export?format=ndjson&since=2026-08-01", headers=tenant.headers
    )
    assert len(ndjson.text.strip().splitlines()) == 5


async def test_bad_windows_are_400_naming_the_field(client: AsyncTestClient, tenant: Tenant) -> None:
    for query, field in (
        ("since=yesterday", "since"),
        ("until=2026-13-01", "until"),
        ("since=2026-05-01&until=2026-04-01", "until"),
        ("since=1990-01-01&until=2026-01-01", "since"),
    ):
        for path in ("", "/export"):
            response = await client.get(churn_url(tenant) + path + "?" + query, headers=tenant.headers)
            assert response.status_code == 400, (path, query)
            assert field in response.json()["details"], (query, response.json())


async def test_windows_at_the_edges_of_the_calendar_are_answered(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    for query in ("until=0001-03-01", "since=9999-12-01", "since=0001-01-01&until=0001-02-01"):
        response = await client.get(churn_url(tenant) + "?" + query, headers=tenant.headers)
        assert response.status_code == 200, (query, response.text)


async def test_an_empty_project_has_twelve_empty_months(client: AsyncTestClient, tenant: Tenant) -> None:
    report = (await client.get(churn_url(tenant), headers=tenant.headers)).json()
    assert report["cancellations"] == 0 and report["recent"] == [] and report["themes"] == []
    assert len(report["by_month"]) == 12
    assert report["by_month"][-1]["month"] == datetime.now(UTC).strftime("%Y-%m")
