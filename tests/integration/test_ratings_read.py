"""Rating lists, one rating, archiving: newest first, filters, true totals, archived hidden."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.factories import Tenant, add_project
from tests.rating_clock import rate_at

START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/ratings{suffix}"


async def post_helpful(client: AsyncTestClient, tenant: Tenant, **body: Any) -> dict[str, Any]:
    response = await client.post(url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 200
    return dict(response.json())


async def post_typed(
    client: AsyncTestClient, tenant: Tenant, rating: dict[str, Any], **ctx: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"rating": rating}
    if ctx:
        body["context"] = ctx
    response = await client.post(url(tenant, "/typed"), json=body, headers=tenant.headers)
    assert response.status_code == 201
    return dict(response.json())


async def test_list_is_newest_first_with_pages_and_true_totals(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = []
    for i in range(5):
        rate_at(monkeypatch, START + timedelta(hours=i))
        ids.append((await post_helpful(client, tenant, value=i % 2 == 0))["id"])
    rate_at(monkeypatch, START + timedelta(hours=2))  # same instant as ids[2]: id breaks the tie
    ids.append((await post_helpful(client, tenant, value=True))["id"])
    newest_first = [ids[4], ids[3], ids[5], ids[2], ids[1], ids[0]]

    pages = []
    for page in (1, 2, 3):
        response = await client.get(url(tenant, f"?page={page}&limit=2"), headers=tenant.read_headers)
        assert response.status_code == 200
        body = response.json()
        assert body["pagination"] == {"page": page, "limit": 2, "total": 6, "total_pages": 3}
        pages += [r["id"] for r in body["ratings"]]
    assert pages == newest_first

    beyond = (await client.get(url(tenant, "?page=9&limit=2"), headers=tenant.headers)).json()
    assert beyond == {"ratings": [], "pagination": {"page": 9, "limit": 2, "total": 6, "total_pages": 3}}
    default = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert default["pagination"] == {"page": 1, "limit": 20, "total": 6, "total_pages": 1}


async def test_list_filters_by_value_and_path(client: AsyncTestClient, tenant: Tenant) -> None:
    a_yes = await post_helpful(client, tenant, value=True, path="/a")
    await post_helpful(client, tenant, value=False, path="/a")
    b_no = await post_helpful(client, tenant, value=False, path="/b")
    no_path = await post_helpful(client, tenant, value=True)

    async def listed(query: str) -> tuple[list[str], int]:
        body = (await client.get(url(tenant, query), headers=tenant.headers)).json()
        return [r["id"] for r in body["ratings"]], body["pagination"]["total"]

    assert await listed("?value=true") == ([no_path["id"], a_yes["id"]], 2)
    assert await listed("?value=false&path=/b") == ([b_no["id"]], 1)
    assert await listed("?value=true&path=/a") == ([a_yes["id"]], 1)
    assert (await listed("?path=/a"))[1] == 2
    assert await listed("?path=/missing") == ([], 0)


async def test_simple_list_holds_helpful_ratings_only(client: AsyncTestClient, tenant: Tenant) -> None:
    helpful = await post_helpful(client, tenant, value=True)
    await post_typed(client, tenant, {"type": "star", "value": 3})
    await post_typed(client, tenant, {"type": "nps", "value": 8})
    body = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert [r["id"] for r in body["ratings"]] == [helpful["id"]]
    assert body["pagination"]["total"] == 1


async def test_typed_list_filters_by_type_and_path(client: AsyncTestClient, tenant: Tenant) -> None:
    star_a = await post_typed(
        client, tenant, {"type": "star", "value": 3, "max_stars": 4}, path="/a", version="1"
    )
    star_b = await post_typed(client, tenant, {"type": "star", "value": 5}, path="/b", submitted_by="u1")
    nps = await post_typed(client, tenant, {"type": "nps", "value": 8}, metadata={"k": "v"})
    helpful = await post_helpful(client, tenant, value=False, path="/a")

    stars = (await client.get(url(tenant, "/typed?type=star"), headers=tenant.headers)).json()
    assert stars["ratings"] == [star_b, star_a]
    assert stars["pagination"] == {"page": 1, "limit": 20, "total": 2, "total_pages": 1}
    only_a = (await client.get(url(tenant, "/typed?type=star&path=/a"), headers=tenant.headers)).json()
    assert only_a["ratings"] == [star_a]
    assert only_a["pagination"]["total"] == 1
    nps_list = (await client.get(url(tenant, "/typed?type=nps"), headers=tenant.headers)).json()
    assert nps_list["ratings"] == [nps]
    default = (await client.get(url(tenant, "/typed"), headers=tenant.headers)).json()
    assert default["ratings"] == [
        {
            "id": helpful["id"],
            "project_id": tenant.project_id,
            "rating_type": "helpful",
            "value": {"type": "helpful", "value": False},
            "path": "/a",
            "created_at": helpful["created_at"],
            "archived": False,
            "submitted_by_verified": False,
        }
    ]


async def test_get_one_rating_in_typed_form(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await post_typed(
        client, tenant, {"type": "star", "value": 2, "max_stars": 3}, path="/p", metadata={"a": 1}
    )
    response = await client.get(url(tenant, f"/{created['id']}"), headers=tenant.read_headers)
    assert response.status_code == 200
    assert response.json() == created
    helpful = await post_helpful(client, tenant, value=True, version="9")
    one = (await client.get(url(tenant, f"/{helpful['id']}"), headers=tenant.headers)).json()
    assert one["value"] == {"type": "helpful", "value": True}
    assert one["version"] == "9"
    assert "path" not in one and "submitted_by" not in one and "metadata" not in one


async def test_archive_hides_the_rating_and_is_idempotent(client: AsyncTestClient, tenant: Tenant) -> None:
    kept = await post_helpful(client, tenant, value=True, path="/a")
    gone = await post_helpful(client, tenant, value=False, path="/a")
    star = await post_typed(client, tenant, {"type": "star", "value": 4})

    for _ in range(2):
        response = await client.delete(url(tenant, f"/{gone['id']}"), headers=tenant.headers)
        assert response.status_code == 204
        assert response.content == b""
    assert (await client.delete(url(tenant, f"/{star['id']}"), headers=tenant.headers)).status_code == 204

    body = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert [r["id"] for r in body["ratings"]] == [kept["id"]]
    assert body["pagination"]["total"] == 1
    assert (await client.get(url(tenant, "?path=/a&value=false"), headers=tenant.headers)).json()[
        "pagination"
    ]["total"] == 0
    stars = (await client.get(url(tenant, "/typed?type=star"), headers=tenant.headers)).json()
    assert stars == {"ratings": [], "pagination": {"page": 1, "limit": 20, "total": 0, "total_pages": 0}}

    archived = await client.get(url(tenant, f"/{gone['id']}"), headers=tenant.headers)
    assert archived.status_code == 200
    assert archived.json()["archived"] is True
    assert archived.json()["value"] == {"type": "helpful", "value": False}
    stats = (await client.get(url(tenant, "/stats"), headers=tenant.headers)).json()
    assert stats == {
        "type": "helpful",
        "total": 1,
        "helpful": 1,
        "not_helpful": 0,
        "percentage": 100.0,
        "reasons": {},
    }


async def test_unknown_rating_is_404_and_bad_id_400(client: AsyncTestClient, tenant: Tenant) -> None:
    missing = "0190b2b4-0000-7000-8000-000000000000"
    for method in ("GET", "DELETE"):
        response = await client.request(method, url(tenant, f"/{missing}"), headers=tenant.headers)
        assert response.status_code == 404
        assert response.json() == {"error": "not_found", "details": "no rating with this id in this project"}
        bad = await client.request(method, url(tenant, "/not-a-uuid"), headers=tenant.headers)
        assert bad.status_code == 400
        assert bad.json()["details"].startswith("rating_id")


async def test_rating_of_another_project_is_404(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    rating = await post_helpful(client, tenant, value=True)
    second = await add_project(session_maker, tenant, name="Second")
    other_url = f"/api/v1/projects/{second.id}/ratings/{rating['id']}"
    assert (await client.get(other_url, headers=tenant.headers)).status_code == 404
    assert (await client.delete(other_url, headers=tenant.headers)).status_code == 404
    assert (await client.get(url(tenant, f"/{rating['id']}"), headers=tenant.headers)).json()[
        "archived"
    ] is False


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?page=0", "page"),
        ("?page=-1", "page"),
        ("?page=x", "page"),
        ("?limit=0", "limit"),
        ("?limit=101", "limit"),
        ("?value=maybe", "value"),
        ("?path=docs", "path"),
        ("/typed?type=bogus", "type"),
        ("/typed?limit=101", "limit"),
        ("/typed?page=0", "page"),
        ("/typed?path=%2Fa%0Ab", "path"),
    ],
)
async def test_bad_list_parameters_are_400(
    client: AsyncTestClient, tenant: Tenant, query: str, field: str
) -> None:
    response = await client.get(url(tenant, query), headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert response.json()["details"].startswith(field)


async def test_limit_100_is_allowed(client: AsyncTestClient, tenant: Tenant) -> None:
    await post_helpful(client, tenant, value=True)
    response = await client.get(url(tenant, "?limit=100"), headers=tenant.headers)
    assert response.json()["pagination"] == {"page": 1, "limit": 100, "total": 1, "total_pages": 1}


async def test_fixed_segments_are_not_taken_for_rating_ids(client: AsyncTestClient, tenant: Tenant) -> None:
    await post_typed(client, tenant, {"type": "nps", "value": 3})
    typed = await client.get(url(tenant, "/typed?type=nps"), headers=tenant.headers)
    assert typed.status_code == 200 and typed.json()["pagination"]["total"] == 1
    for suffix in ("/stats", "/stats/typed", "/stats/series"):
        response = await client.get(url(tenant, suffix), headers=tenant.headers)
        assert response.status_code == 200, suffix
        assert response.json()["type"] == "helpful"
