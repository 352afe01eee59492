"""Feedback items through the REST API: create, read, list with filters and sorts, change, archive."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import FeedbackSource
from app.db.transactions import unit_of_work
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.factories import Tenant

UNKNOWN_ID = "0190b2b4-0000-7000-8000-000000000000"


def feedback_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/feedback{suffix}"


async def create(client: AsyncTestClient, tenant: Tenant, **body: Any) -> dict[str, Any]:
    response = await client.post(
        feedback_url(tenant), json={"message": "It works", **body}, headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    return response.json()


async def listed(client: AsyncTestClient, tenant: Tenant, query: str = "") -> list[dict[str, Any]]:
    response = await client.get(feedback_url(tenant, query), headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    return response.json()["feedback"]


async def test_create_returns_the_item_and_get_reads_it_back(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await create(
        client, tenant, message="Search is slow", type="Bug", status="Active", path="/docs", version="2.1"
    )
    assert created["message"] == "Search is slow"
    assert (created["type"], created["status"], created["source"]) == ("Bug", "Active", "Manual")
    assert created["project_id"] == tenant.project_id
    assert (created["path"], created["version"]) == ("/docs", "2.1")
    assert created["archived"] is False
    assert created["created_at"].endswith("Z") and created["updated_at"] == created["created_at"]
    assert "submitted_by" not in created and "resolution_note" not in created
    fetched = await client.get(feedback_url(tenant, f"/{created['id']}"), headers=tenant.read_headers)
    assert fetched.status_code == 200
    assert fetched.json() == created


async def test_create_defaults_and_optional_fields(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await create(client, tenant, submitted_by="user_42")
    assert (created["type"], created["status"], created["source"]) == ("Other", "New", "Manual")
    assert created["submitted_by"] == "user_42"
    assert "path" not in created and "version" not in created and "metadata" not in created
    with_metadata = await create(client, tenant, metadata={"nps": 3, "plan": "pro", "trial": False})
    assert with_metadata["metadata"] == {"nps": 3, "plan": "pro", "trial": False}


async def test_project_key_works_as_the_path_segment(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await create(client, tenant)
    response = await client.get(
        f"/api/v1/projects/{tenant.project_key}/feedback/{created['id']}", headers=tenant.headers
    )
    assert response.status_code == 200
    assert response.json()["id"] == created["id"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"message": ""}, "message"),
        ({"message": "x" * 5001}, "message"),
        ({"message": 42}, "message"),
        ({}, "message"),
        ({"message": "ok", "type": "Complaint"}, "type"),
        ({"message": "ok", "type": "bug"}, "type"),
        ({"message": "ok", "status": "Open"}, "status"),
        ({"message": "ok", "path": "docs"}, "path"),
        ({"message": "ok", "version": "v" * 101}, "version"),
        ({"message": "ok", "submitted_by": "a@b.c"}, "submitted_by"),
        ({"message": "ok", "metadata": {f"k{i}": i for i in range(21)}}, "metadata"),
        ({"message": "ok", "metadata": {"k" * 65: 1}}, "metadata"),
        ({"message": "ok", "metadata": {"": 1}}, "metadata"),
        ({"message": "ok", "metadata": {"plan": "x" * 501}}, "metadata"),
        ({"message": "ok", "metadata": {"plan": ["pro"]}}, "metadata"),
        ({"message": "ok", "metadata": {"plan": {"tier": 1}}}, "metadata"),
        ({"message": "ok", "metadata": "pro"}, "metadata"),
    ],
)
async def test_create_refuses_bad_fields_naming_them(
    client: AsyncTestClient, tenant: Tenant, body: dict[str, Any], field: str
) -> None:
    response = await client.post(feedback_url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    named = response.json()["details"].split(":")[0]
    assert named in (field, f"{field}[...]")  # a value inside an object is named by its object
    assert await listed(client, tenant) == []


async def test_metadata_is_kept_and_returned_only_when_given(client: AsyncTestClient, tenant: Tenant) -> None:
    metadata = {"plan": "x" * 500, "seats": 3, "ratio": 0.5, "trial": False, "coupon": None}
    with_metadata = await create(client, tenant, metadata={**metadata, **{f"k{i}": i for i in range(15)}})
    assert with_metadata["metadata"] == {**metadata, **{f"k{i}": i for i in range(15)}}
    without = await create(client, tenant, message="No details")
    assert "metadata" not in without
    one = await client.get(feedback_url(tenant, f"/{with_metadata['id']}"), headers=tenant.headers)
    assert one.json()["metadata"] == with_metadata["metadata"]


async def test_message_of_exactly_5000_characters_is_accepted(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    created = await create(client, tenant, message="x" * 5000)
    assert len(created["message"]) == 5000


async def test_source_is_always_manual_through_the_api(client: AsyncTestClient, tenant: Tenant) -> None:
    refused = await client.post(
        feedback_url(tenant), json={"message": "It works", "source": "Stripe"}, headers=tenant.headers
    )
    assert refused.status_code == 400 and "source" in refused.json()["details"]
    assert (await create(client, tenant))["source"] == "Manual"


async def test_list_is_newest_first_with_pagination(client: AsyncTestClient, tenant: Tenant) -> None:
    ids = [(await create(client, tenant, message=f"item {n}"))["id"] for n in range(5)]
    response = await client.get(feedback_url(tenant, "?limit=2&page=2"), headers=tenant.headers)
    body = response.json()
    assert [item["id"] for item in body["feedback"]] == [ids[2], ids[1]]
    assert body["pagination"] == {"page": 2, "limit": 2, "total": 5, "total_pages": 3}
    default = await client.get(feedback_url(tenant), headers=tenant.headers)
    assert default.json()["pagination"] == {"page": 1, "limit": 20, "total": 5, "total_pages": 1}
    assert [item["id"] for item in default.json()["feedback"]] == ids[::-1]


async def test_page_past_the_end_is_empty_with_true_totals(client: AsyncTestClient, tenant: Tenant) -> None:
    await create(client, tenant)
    body = (await client.get(feedback_url(tenant, "?page=9"), headers=tenant.headers)).json()
    assert body == {"feedback": [], "pagination": {"page": 9, "limit": 20, "total": 1, "total_pages": 1}}


async def test_empty_list(client: AsyncTestClient, tenant: Tenant) -> None:
    body = (await client.get(feedback_url(tenant), headers=tenant.headers)).json()
    assert body == {"feedback": [], "pagination": {"page": 1, "limit": 20, "total": 0, "total_pages": 0}}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page=0", "page"),
        ("page=-1", "page"),
        ("page=x", "page"),
        ("page=1000000001", "page"),
        ("page=" + "9" * 30, "page"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=2.5", "limit"),
        ("status=Open", "status"),
        ("type=Complaint", "type"),
        ("source=Zendesk", "source"),
        ("sort=message", "sort"),
        ("sort=-id", "sort"),
        ("archived=perhaps", "archived"),
        ("search=" + "s" * 201, "search"),
    ],
)
async def test_list_refuses_bad_parameters(
    client: AsyncTestClient, tenant: Tenant, query: str, field: str
) -> None:
    response = await client.get(feedback_url(tenant, f"?{query}"), headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["details"].startswith((f"{field}:", f"{field}[...]:"))


async def test_limit_100_is_allowed(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.get(feedback_url(tenant, "?limit=100"), headers=tenant.headers)
    assert response.status_code == 200
    assert response.json()["pagination"]["limit"] == 100


async def test_filters_by_status_type_path_and_source(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    bug = await create(client, tenant, type="Bug", status="Active", path="/pricing")
    idea = await create(client, tenant, type="Feature", path="/docs")
    async with unit_of_work(session_maker) as session:
        imported = await FeedbackItems(
            session, operator_scope(tenant.project.org_id, "import"), tenant.project
        ).create(message="Cancelled: too expensive", source=FeedbackSource.STRIPE)
    assert [i["id"] for i in await listed(client, tenant, "?status=Active")] == [bug["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?type=Feature")] == [idea["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?path=/pricing")] == [bug["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?path=/pricing/")] == []
    assert [i["id"] for i in await listed(client, tenant, "?source=Stripe")] == [str(imported.id)]
    assert [i["source"] for i in await listed(client, tenant, "?source=Manual")] == ["Manual", "Manual"]
    assert [i["id"] for i in await listed(client, tenant, "?type=Bug&status=New")] == []


async def test_search_is_a_case_insensitive_substring_with_literal_wildcards(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    dark = await create(client, tenant, message="Please add a Dark Mode")
    percent = await create(client, tenant, message="Discount of 100% is not applied")
    under = await create(client, tenant, message="The field user_name is empty")
    await create(client, tenant, message="Great docs")
    assert [i["id"] for i in await listed(client, tenant, "?search=dark%20mode")] == [dark["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?search=DARK")] == [dark["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?search=%25")] == [percent["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?search=r_n")] == [under["id"]]
    assert [i["id"] for i in await listed(client, tenant, "?search=_")] == [under["id"]]
    assert await listed(client, tenant, "?search=nothing-like-this") == []


async def test_sort_orders(client: AsyncTestClient, tenant: Tenant) -> None:
    first, second, third = [(await create(client, tenant, message=f"n{n}"))["id"] for n in range(3)]
    # Touch the oldest last so that updated order differs from created order.
    for item_id in (second, first):
        response = await client.patch(
            feedback_url(tenant, f"/{item_id}"), json={"status": "Active"}, headers=tenant.headers
        )
        assert response.status_code == 200
    ids = lambda items: [i["id"] for i in items]  # noqa: E731
    assert ids(await listed(client, tenant)) == [third, second, first]
    assert ids(await listed(client, tenant, "?sort=-created_at")) == [third, second, first]
    assert ids(await listed(client, tenant, "?sort=created_at")) == [first, second, third]
    assert ids(await listed(client, tenant, "?sort=-updated_at")) == [first, second, third]
    assert ids(await listed(client, tenant, "?sort=updated_at")) == [third, second, first]


async def test_patch_changes_fields_and_records_each_change(client: AsyncTestClient, tenant: Tenant) -> None:
    item = await create(client, tenant, message="Typo on pricing")
    response = await client.patch(
        feedback_url(tenant, f"/{item['id']}"),
        json={"status": "Resolved", "type": "Bug", "resolution_note": "Fixed in 2.2", "message": "Typo!"},
        headers=tenant.headers,
    )
    assert response.status_code == 200
    changed = response.json()
    assert (changed["status"], changed["type"], changed["message"]) == ("Resolved", "Bug", "Typo!")
    assert changed["resolution_note"] == "Fixed in 2.2"
    assert changed["updated_at"] > item["updated_at"]
    assert changed["created_at"] == item["created_at"]
    history = (
        await client.get(feedback_url(tenant, f"/{item['id']}/history"), headers=tenant.read_headers)
    ).json()["history"]
    actor = f"token {tenant.token[:12]}"
    assert [(h["field"], h["from"], h["to"], h["changed_by"]) for h in history] == [
        ("message", "Typo on pricing", "Typo!", actor),
        ("type", "Other", "Bug", actor),
        ("status", "New", "Resolved", actor),
        ("resolution_note", None, "Fixed in 2.2", actor),
    ]
    assert {h["changed_at"] for h in history} == {changed["updated_at"]}
    assert (
        await client.get(feedback_url(tenant, f"/{item['id']}"), headers=tenant.headers)
    ).json() == changed


async def test_any_status_may_follow_any_status_and_history_is_oldest_first(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    for status in ("Closed", "New", "Hold", "Assigned", "Resolved", "Active"):
        response = await client.patch(path, json={"status": status}, headers=tenant.headers)
        assert response.status_code == 200
        assert response.json()["status"] == status
    history = (await client.get(f"{path}/history", headers=tenant.headers)).json()["history"]
    assert [(h["from"], h["to"]) for h in history] == [
        ("New", "Closed"),
        ("Closed", "New"),
        ("New", "Hold"),
        ("Hold", "Assigned"),
        ("Assigned", "Resolved"),
        ("Resolved", "Active"),
    ]
    assert [h["changed_at"] for h in history] == sorted(h["changed_at"] for h in history)


async def test_patch_that_changes_nothing_records_nothing(client: AsyncTestClient, tenant: Tenant) -> None:
    item = await create(client, tenant, type="Bug")
    path = feedback_url(tenant, f"/{item['id']}")
    for body in ({}, {"type": "Bug", "status": "New", "archived": False, "resolution_note": None}):
        response = await client.patch(path, json=body, headers=tenant.headers)
        assert response.status_code == 200
        assert response.json() == item
    assert (await client.get(f"{path}/history", headers=tenant.headers)).json() == {"history": []}


async def test_resolution_note_can_be_cleared(client: AsyncTestClient, tenant: Tenant) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    await client.patch(path, json={"resolution_note": "Duplicate"}, headers=tenant.headers)
    cleared = await client.patch(path, json={"resolution_note": None}, headers=tenant.headers)
    assert "resolution_note" not in cleared.json()
    history = (await client.get(f"{path}/history", headers=tenant.headers)).json()["history"]
    assert [(h["from"], h["to"]) for h in history] == [(None, "Duplicate"), ("Duplicate", None)]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"message": ""}, "message"),
        ({"message": "m" * 5001}, "message"),
        ({"status": "Done"}, "status"),
        ({"status": None}, "status"),
        ({"type": "Complaint"}, "type"),
        ({"archived": "yes"}, "archived"),
        ({"resolution_note": 7}, "resolution_note"),
        ({"resolution_note": "n" * 5001}, "resolution_note"),
    ],
)
async def test_patch_refuses_bad_fields_and_changes_nothing(
    client: AsyncTestClient, tenant: Tenant, body: dict[str, Any], field: str
) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    response = await client.patch(path, json=body, headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["details"].startswith((f"{field}:", f"{field}[...]:"))
    assert (await client.get(path, headers=tenant.headers)).json() == item
    assert (await client.get(f"{path}/history", headers=tenant.headers)).json() == {"history": []}


async def test_delete_archives_idempotently_and_keeps_the_item(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    for _ in range(2):
        response = await client.delete(path, headers=tenant.headers)
        assert response.status_code == 204
        assert response.content == b""
    assert await listed(client, tenant) == []
    archived = await listed(client, tenant, "?archived=true")
    assert [(i["id"], i["archived"]) for i in archived] == [(item["id"], True)]
    assert (await client.get(path, headers=tenant.headers)).json()["archived"] is True
    history = (await client.get(f"{path}/history", headers=tenant.headers)).json()["history"]
    assert [(h["field"], h["from"], h["to"]) for h in history] == [("archived", False, True)]


async def test_patch_restores_an_archived_item(client: AsyncTestClient, tenant: Tenant) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    await client.delete(path, headers=tenant.headers)
    restored = await client.patch(path, json={"archived": False}, headers=tenant.headers)
    assert restored.json()["archived"] is False
    assert [i["id"] for i in await listed(client, tenant)] == [item["id"]]


async def test_feedback_count_follows_archiving(client: AsyncTestClient, tenant: Tenant) -> None:
    async def count() -> int:
        response = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
        return int(response.json()["feedback_count"])

    first = await create(client, tenant)
    await create(client, tenant)
    assert await count() == 2
    await client.delete(feedback_url(tenant, f"/{first['id']}"), headers=tenant.headers)
    assert await count() == 1
    await client.patch(
        feedback_url(tenant, f"/{first['id']}"), json={"archived": False}, headers=tenant.headers
    )
    assert await count() == 2


@pytest.mark.parametrize("suffix", ["", "/history"])
async def test_unknown_and_malformed_feedback_ids(
    client: AsyncTestClient, tenant: Tenant, suffix: str
) -> None:
    missing = await client.get(feedback_url(tenant, f"/{UNKNOWN_ID}{suffix}"), headers=tenant.headers)
    assert missing.status_code == 404
    assert missing.json() == {
        "error": "not_found",
        "details": "no feedback item with this id in this project",
    }
    bad = await client.get(feedback_url(tenant, f"/12345{suffix}"), headers=tenant.headers)
    assert bad.status_code == 400
    assert bad.json()["details"].startswith("feedback_id:")


async def test_unknown_ids_on_patch_and_delete_are_404(client: AsyncTestClient, tenant: Tenant) -> None:
    path = feedback_url(tenant, f"/{UNKNOWN_ID}")
    assert (await client.patch(path, json={"status": "Active"}, headers=tenant.headers)).status_code == 404
    assert (await client.delete(path, headers=tenant.headers)).status_code == 404


async def test_read_token_reads_but_may_not_write(client: AsyncTestClient, tenant: Tenant) -> None:
    item = await create(client, tenant)
    path = feedback_url(tenant, f"/{item['id']}")
    assert (await client.get(path, headers=tenant.read_headers)).status_code == 200
    refused = [
        await client.post(feedback_url(tenant), json={"message": "x"}, headers=tenant.read_headers),
        await client.patch(path, json={"status": "Closed"}, headers=tenant.read_headers),
        await client.delete(path, headers=tenant.read_headers),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403]
    assert (await client.get(path, headers=tenant.headers)).json() == item


async def test_a_duplicate_marked_spam_is_not_counted_on_its_original(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    """Review finding 10: spam stays out of every count; an item marked spam still counted in its
    original's duplicate_count."""
    original = await create(client, tenant, message="Search ignores accents")
    repeat = await create(client, tenant, message="Search ignores accents, buy pills at pills.example")
    linked = await client.patch(
        feedback_url(tenant, f"/{repeat['id']}"),
        json={"duplicate_of": original["id"]},
        headers=tenant.headers,
    )
    assert linked.status_code == 200, linked.text
    got = (await client.get(feedback_url(tenant, f"/{original['id']}"), headers=tenant.headers)).json()
    assert got["duplicate_count"] == 1
    marked = await client.patch(
        feedback_url(tenant, f"/{repeat['id']}"), json={"spam": True}, headers=tenant.headers
    )
    assert marked.status_code == 200, marked.text
    got = (await client.get(feedback_url(tenant, f"/{original['id']}"), headers=tenant.headers)).json()
    assert "duplicate_count" not in got
    assert [item.get("duplicate_count") for item in await listed(client, tenant)] == [None]
