"""Rating statistics and series: exact figures, path and time filters (partial days included),
archived ratings excluded, buckets by UTC day and ISO week."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from app.timestamps import utc_now
from tests.factories import Tenant
from tests.rating_clock import rate_at


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# (moment, path, value); the rating marked archived is deleted after it is stored
HELPFUL = [
    ("2026-05-01T10:00:00", "/a", True),
    ("2026-05-02T09:00:00", "/a", True),
    ("2026-05-02T15:00:00", "/a", False),
    ("2026-05-03T08:00:00", "/a", True),
    ("2026-05-01T23:59:59.999", "/b", True),
    ("2026-05-02T12:00:00", "/b", False),
    ("2026-05-03T20:00:00", "/b", False),
]
ARCHIVED_HELPFUL = ("2026-05-02T13:00:00", "/a", False)


def url(tenant: Tenant, suffix: str) -> str:
    return f"/api/v1/projects/{tenant.project_id}/ratings{suffix}"


async def stats(client: AsyncTestClient, tenant: Tenant, suffix: str) -> dict[str, Any]:
    response = await client.get(url(tenant, suffix), headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def rate(
    client: AsyncTestClient,
    tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
    moment: str,
    body: dict[str, Any],
) -> str:
    rate_at(monkeypatch, at(moment))
    response = await client.post(url(tenant, "/typed"), json=body, headers=tenant.headers)
    assert response.status_code == 201
    return str(response.json()["id"])


@pytest.fixture
async def helpful_ratings(client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
    for moment, path, value in [*HELPFUL, ARCHIVED_HELPFUL]:
        rating_id = await rate(
            client,
            tenant,
            monkeypatch,
            moment,
            {"rating": {"type": "helpful", "value": value}, "context": {"path": path}},
        )
    response = await client.delete(url(tenant, f"/{rating_id}"), headers=tenant.headers)
    assert response.status_code == 204


def helpful(total: int, yes: int, percentage: float) -> dict[str, Any]:
    return {
        "type": "helpful",
        "total": total,
        "helpful": yes,
        "not_helpful": total - yes,
        "percentage": percentage,
        "reasons": {},
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", helpful(7, 4, 57.1)),
        ("?path=/a", helpful(4, 3, 75.0)),
        ("?path=/b", helpful(3, 1, 33.3)),
        ("?path=/none", helpful(0, 0, 0.0)),
        ("?since=2026-05-02", helpful(5, 2, 40.0)),
        ("?until=2026-05-02", helpful(5, 3, 60.0)),
        ("?since=2026-05-02&until=2026-05-02", helpful(3, 1, 33.3)),
        ("?since=2026-05-02T12:00:00Z", helpful(4, 1, 25.0)),
        ("?until=2026-05-02T12:00:00Z", helpful(3, 3, 100.0)),
        ("?since=2026-05-02T10:00:00Z&until=2026-05-02T14:00:00%2B01:00", helpful(1, 0, 0.0)),
        ("?since=2026-05-01T23:59:59.999Z&until=2026-05-02T09:00:00.001Z", helpful(2, 2, 100.0)),
        ("?since=2026-05-01T12:00:00&until=2026-05-03T12:00:00", helpful(5, 3, 60.0)),
        ("?path=/a&since=2026-05-02T12:00:00Z", helpful(2, 1, 50.0)),
        ("?since=2027-01-01", helpful(0, 0, 0.0)),
    ],
)
async def test_helpful_stats(
    client: AsyncTestClient, tenant: Tenant, helpful_ratings: None, query: str, expected: dict[str, Any]
) -> None:
    assert await stats(client, tenant, "/stats/typed" + query) == expected
    assert await stats(client, tenant, "/stats" + query) == expected


async def test_star_stats(client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
    moment = "2026-05-01T10:00:00"
    for value, max_stars, path in [(5, 5, "/a"), (4, 5, "/a"), (4, 5, "/a"), (9, 10, "/b"), (2, None, "/b")]:
        rating = {"type": "star", "value": value} | ({"max_stars": max_stars} if max_stars else {})
        await rate(client, tenant, monkeypatch, moment, {"rating": rating, "context": {"path": path}})
    archived = await rate(client, tenant, monkeypatch, moment, {"rating": {"type": "star", "value": 1}})
    await client.delete(url(tenant, f"/{archived}"), headers=tenant.headers)

    assert await stats(client, tenant, "/stats/typed?type=star") == {
        "type": "star",
        "total": 5,
        "average": 4.8,
        "distribution": {"1": 0, "2": 1, "3": 0, "4": 2, "5": 1, "6": 0, "7": 0, "8": 0, "9": 1, "10": 0},
    }
    assert await stats(client, tenant, "/stats/typed?type=star&path=/a") == {
        "type": "star",
        "total": 3,
        "average": 4.33,
        "distribution": {"1": 0, "2": 0, "3": 0, "4": 2, "5": 1},
    }
    assert await stats(client, tenant, "/stats/typed?type=star&since=2026-05-02") == {
        "type": "star",
        "total": 0,
        "average": 0.0,
        "distribution": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
    }


async def test_star_distribution_follows_a_small_scale(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    for value in (3, 1):
        await rate(
            client,
            tenant,
            monkeypatch,
            "2026-05-01T10:00:00",
            {"rating": {"type": "star", "value": value, "max_stars": 3}},
        )
    body = await stats(client, tenant, "/stats/typed?type=star")
    assert body == {"type": "star", "total": 2, "average": 2.0, "distribution": {"1": 1, "2": 0, "3": 1}}


async def test_nps_stats(client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in (10, 9, 9, 8, 7, 6, 0):
        await rate(
            client, tenant, monkeypatch, "2026-05-01T10:00:00", {"rating": {"type": "nps", "value": value}}
        )
    archived = await rate(
        client, tenant, monkeypatch, "2026-05-01T11:00:00", {"rating": {"type": "nps", "value": 0}}
    )
    await client.delete(url(tenant, f"/{archived}"), headers=tenant.headers)
    assert await stats(client, tenant, "/stats/typed?type=nps") == {
        "type": "nps",
        "total": 7,
        "score": 14,
        "promoters": 3,
        "passives": 2,
        "detractors": 2,
        "distribution": {
            "0": 1,
            "1": 0,
            "2": 0,
            "3": 0,
            "4": 0,
            "5": 0,
            "6": 1,
            "7": 1,
            "8": 1,
            "9": 2,
            "10": 1,
        },
        "category": "needs_improvement",
    }
    empty = await stats(client, tenant, "/stats/typed?type=nps&path=/x")
    assert empty["total"] == empty["score"] == 0
    assert empty["distribution"] == {str(score): 0 for score in range(11)}


async def test_nps_categories(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def add(*values: int) -> dict[str, Any]:
        for value in values:
            await rate(
                client,
                tenant,
                monkeypatch,
                "2026-05-01T10:00:00",
                {"rating": {"type": "nps", "value": value}},
            )
        return await stats(client, tenant, "/stats/typed?type=nps")

    first = await add(3)
    assert (first["score"], first["category"]) == (-100, "critical")
    second = await add(10, 10, 10, 10)
    assert (second["score"], second["category"]) == (60, "great")
    third = await add(10, 10, 10, 10, 10)
    assert (third["score"], third["category"]) == (80, "excellent")


async def test_stats_of_one_type_ignore_the_others(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    await rate(client, tenant, monkeypatch, "2026-05-01T10:00:00", {"rating": {"type": "nps", "value": 1}})
    await rate(client, tenant, monkeypatch, "2026-05-01T10:00:00", {"rating": {"type": "star", "value": 1}})
    assert await stats(client, tenant, "/stats") == helpful(0, 0, 0.0)
    assert (await stats(client, tenant, "/stats/typed?type=star"))["total"] == 1


def day(start: str, total: int, yes: int, percentage: float) -> dict[str, Any]:
    return {
        "start": start,
        "total": total,
        "helpful": yes,
        "not_helpful": total - yes,
        "percentage": percentage,
        "reasons": {},
    }


async def test_daily_series_includes_empty_days(
    client: AsyncTestClient, tenant: Tenant, helpful_ratings: None
) -> None:
    body = await stats(client, tenant, "/stats/series?since=2026-04-30&until=2026-05-04")
    assert body == {
        "type": "helpful",
        "interval": "day",
        "points": [
            day("2026-04-30T00:00:00.000Z", 0, 0, 0.0),
            day("2026-05-01T00:00:00.000Z", 2, 2, 100.0),
            day("2026-05-02T00:00:00.000Z", 3, 1, 33.3),
            day("2026-05-03T00:00:00.000Z", 2, 1, 50.0),
            day("2026-05-04T00:00:00.000Z", 0, 0, 0.0),
        ],
    }


async def test_series_with_partial_days_and_path(
    client: AsyncTestClient, tenant: Tenant, helpful_ratings: None
) -> None:
    body = await stats(client, tenant, "/stats/series?since=2026-05-02T12:00:00Z&until=2026-05-03T12:00:00Z")
    assert body["points"] == [
        day("2026-05-02T00:00:00.000Z", 2, 0, 0.0),
        day("2026-05-03T00:00:00.000Z", 1, 1, 100.0),
    ]
    only_b = await stats(client, tenant, "/stats/series?path=/b&since=2026-05-01&until=2026-05-02T12:00:01Z")
    assert only_b["points"] == [
        day("2026-05-01T00:00:00.000Z", 1, 1, 100.0),
        day("2026-05-02T00:00:00.000Z", 1, 0, 0.0),
    ]


async def test_weekly_series_starts_on_monday(
    client: AsyncTestClient, tenant: Tenant, helpful_ratings: None
) -> None:
    body = await stats(client, tenant, "/stats/series?interval=week&since=2026-04-22&until=2026-05-10")
    assert body == {
        "type": "helpful",
        "interval": "week",
        "points": [
            day("2026-04-20T00:00:00.000Z", 0, 0, 0.0),
            day("2026-04-27T00:00:00.000Z", 7, 4, 57.1),
            day("2026-05-04T00:00:00.000Z", 0, 0, 0.0),
        ],
    }
    # A since inside the week still buckets by Monday but counts only from since.
    clipped = await stats(client, tenant, "/stats/series?interval=week&since=2026-05-02&until=2026-05-03")
    assert clipped["points"] == [day("2026-04-27T00:00:00.000Z", 5, 2, 40.0)]


async def test_star_and_nps_series_points(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    await rate(client, tenant, monkeypatch, "2026-05-01T10:00:00", {"rating": {"type": "star", "value": 3}})
    await rate(client, tenant, monkeypatch, "2026-05-02T10:00:00", {"rating": {"type": "nps", "value": 9}})
    star = await stats(client, tenant, "/stats/series?type=star&since=2026-05-01&until=2026-05-02")
    assert star == {
        "type": "star",
        "interval": "day",
        "points": [
            {
                "start": "2026-05-01T00:00:00.000Z",
                "total": 1,
                "average": 3.0,
                "distribution": {"1": 0, "2": 0, "3": 1, "4": 0, "5": 0},
            },
            {
                "start": "2026-05-02T00:00:00.000Z",
                "total": 0,
                "average": 0.0,
                "distribution": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
            },
        ],
    }
    nps = await stats(client, tenant, "/stats/series?type=nps&since=2026-05-02&until=2026-05-02")
    [point] = nps["points"]
    assert point == {
        "start": "2026-05-02T00:00:00.000Z",
        "total": 1,
        "score": 100,
        "promoters": 1,
        "passives": 0,
        "detractors": 0,
        "distribution": {str(score): int(score == 9) for score in range(11)},
        "category": "excellent",
    }


async def test_series_default_window_is_the_last_30_days(client: AsyncTestClient, tenant: Tenant) -> None:
    await client.post(url(tenant, ""), json={"value": True}, headers=tenant.headers)
    body = await stats(client, tenant, "/stats/series")
    today = utc_now().replace(hour=0, minute=0, second=0, microsecond=0)
    assert len(body["points"]) == 30
    assert body["points"][0]["start"] == (today - timedelta(days=29)).strftime("%Y-%m-%dT00:00:00.000Z")
    assert body["points"][-1]["start"] == today.strftime("%Y-%m-%dT00:00:00.000Z")
    assert body["points"][-1]["total"] == 1
    weekly = await stats(client, tenant, "/stats/series?interval=week")
    assert len(weekly["points"]) == 12
    assert datetime.fromisoformat(weekly["points"][-1]["start"]).weekday() == 0


@pytest.mark.parametrize(
    ("suffix", "field"),
    [
        ("/stats?since=yesterday", "since"),
        ("/stats/typed?until=2026-02-30", "until"),
        ("/stats/typed?type=bogus", "type"),
        ("/stats/typed?path=nope", "path"),
        ("/stats/typed?since=2026-05-02&until=2026-05-01T00:00:00Z", "until"),
        ("/stats/series?interval=month", "interval"),
        ("/stats/series?since=2020-01-01&until=2026-01-01", "since"),
        ("/stats/series?type=star&since=2026-13-01", "since"),
    ],
)
async def test_bad_stats_parameters_are_400(
    client: AsyncTestClient, tenant: Tenant, suffix: str, field: str
) -> None:
    response = await client.get(url(tenant, suffix), headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert response.json()["details"].startswith(field)


async def test_a_year_of_days_is_allowed(client: AsyncTestClient, tenant: Tenant) -> None:
    body = await stats(client, tenant, "/stats/series?since=2025-01-01&until=2025-12-31")
    assert len(body["points"]) == 365


async def test_versions_in_the_order_first_seen_with_reasons_and_archives_left_out(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    def helpful_body(value: bool, version: str | None, reason: str | None = None) -> dict[str, Any]:
        metadata = {"reason": reason} if reason else None
        return {
            "rating": {"type": "helpful", "value": value},
            "context": {"path": "/guide", "version": version, "metadata": metadata},
        }

    await rate(client, tenant, monkeypatch, "2026-05-03T09:00:00", helpful_body(True, "10.0"))
    await rate(client, tenant, monkeypatch, "2026-05-01T09:00:00", helpful_body(True, "9.0"))
    await rate(client, tenant, monkeypatch, "2026-05-02T09:00:00", helpful_body(False, "9.0", "inaccurate"))
    await rate(client, tenant, monkeypatch, "2026-05-04T09:00:00", helpful_body(False, "10.0", "other"))
    gone = await rate(
        client, tenant, monkeypatch, "2026-05-02T10:00:00", helpful_body(False, "10.0", "other")
    )
    await rate(client, tenant, monkeypatch, "2026-05-02T11:00:00", helpful_body(True, None))
    await client.delete(url(tenant, f"/{gone}"), headers=tenant.headers)

    body = await stats(client, tenant, "/stats/versions?type=helpful&path=/guide")
    assert body == {
        "type": "helpful",
        "versions": [
            {"version": "9.0", "first_seen": "2026-05-01", "total": 2, "helpful": 1, "not_helpful": 1,
             "percentage": 50.0, "reasons": {"inaccurate": 1}},
            {"version": "10.0", "first_seen": "2026-05-03", "total": 2, "helpful": 1, "not_helpful": 1,
             "percentage": 50.0, "reasons": {"other": 1}},
        ],
    }  # fmt: skip
    nps = await stats(client, tenant, "/stats/versions?type=nps")
    assert nps == {"type": "nps", "versions": []}
    refused = await client.get(url(tenant, "/stats/versions?type=emoji"), headers=tenant.read_headers)
    assert refused.status_code == 400 and "type" in refused.json()["details"]
