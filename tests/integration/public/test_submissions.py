"""A 2xx from a public endpoint means the row is committed, with every field it was sent,
and the success status and body of each endpoint."""

from __future__ import annotations

import json

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, FeedbackItem, Rating
from app.db.transactions import unit_of_work
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, SUCCESS, stored_rows, valid_bodies


async def _one(session_maker: async_sessionmaker[AsyncSession], model: type) -> object:
    async with unit_of_work(session_maker) as session:
        rows = list(await session.scalars(select(model)))
    assert len(rows) == 1
    return rows[0]


async def test_helpful_rating_is_204_and_stored(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    response = await client.post("/api/v1/rating/submit", json=body, headers={"Origin": ALLOWED})
    assert response.status_code == 204
    assert response.content == b""
    rating = await _one(session_maker, Rating)
    assert isinstance(rating, Rating)
    assert (rating.project_id, rating.rating_type, rating.value) == (tenant.project.id, "helpful", 0)
    assert (rating.path, rating.version, rating.submitted_by, rating.archived) == (
        "/docs/install",
        "2.4.1",
        "user_42",
        False,
    )


async def test_helpful_rating_keeps_its_metadata_and_shows_it_in_the_typed_form(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = {**valid_bodies(tenant.project_key)["/api/v1/rating/submit"], "metadata": {"reason": "inaccurate"}}
    response = await client.post("/api/v1/rating/submit", json=body, headers={"Origin": ALLOWED})
    assert response.status_code == 204
    rating = await _one(session_maker, Rating)
    assert isinstance(rating, Rating)
    assert (rating.value, rating.custom_data) == (0, {"reason": "inaccurate"})
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings/typed", headers=tenant.headers)
    assert [r["metadata"] for r in listed.json()["ratings"]] == [{"reason": "inaccurate"}]


async def test_feedback_keeps_its_metadata_and_the_api_returns_it(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    body = {
        **valid_bodies(tenant.project_key)["/api/v1/feedback/submit"],
        "metadata": {"nps": 9, "plan": "pro"},
    }
    assert (
        await client.post("/api/v1/feedback/submit", json=body, headers={"Origin": ALLOWED})
    ).status_code == 200
    plain = {**valid_bodies(tenant.project_key)["/api/v1/feedback/submit"], "message": "No metadata here"}
    assert (
        await client.post("/api/v1/feedback/submit", json=plain, headers={"Origin": ALLOWED})
    ).status_code == 200
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    by_message = {item["message"]: item for item in listed.json()["feedback"]}
    assert by_message["The search box ignores accents"]["metadata"] == {"nps": 9, "plan": "pro"}
    assert "metadata" not in by_message["No metadata here"]  # absent, not null


async def test_typed_rating_is_201_with_id_and_type(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/ratings"]
    response = await client.post("/api/v1/ratings", json=body, headers={"Origin": ALLOWED})
    assert response.status_code == 201
    rating = await _one(session_maker, Rating)
    assert isinstance(rating, Rating)
    assert response.json() == {"id": str(rating.id), "rating_type": "star"}
    assert (rating.value, rating.max_stars, rating.path, rating.version, rating.submitted_by) == (
        4,
        5,
        "/pricing",
        "7",
        "visitor-9",
    )
    assert rating.custom_data == {"plan": "pro", "seats": 3, "trial": True, "ref": None}


@pytest.mark.parametrize(
    ("rating", "stored"),
    [
        ({"type": "helpful", "value": True}, ("helpful", 1, None)),
        ({"type": "star", "value": 7, "max_stars": 10}, ("star", 7, 10)),
        ({"type": "star", "value": 5}, ("star", 5, 5)),
        ({"type": "nps", "value": 0}, ("nps", 0, None)),
    ],
)
async def test_typed_rating_kinds(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    rating: dict[str, object],
    stored: tuple[object, ...],
) -> None:
    response = await client.post(
        "/api/v1/ratings", json={"project_key": tenant.project_key, "rating": rating}
    )
    assert response.status_code == 201
    assert response.json()["rating_type"] == rating["type"]
    row = await _one(session_maker, Rating)
    assert isinstance(row, Rating)
    assert (row.rating_type, row.value, row.max_stars, row.path) == (*stored, None)


async def test_feedback_is_stored_as_new_widget_item(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/feedback/submit"]
    response = await client.post("/api/v1/feedback/submit", json=body, headers={"Origin": ALLOWED})
    assert (response.status_code, response.json()) == (200, {"status": "stored"})
    item = await _one(session_maker, FeedbackItem)
    assert isinstance(item, FeedbackItem)
    assert (item.project_id, item.message, item.type, item.status, item.source) == (
        tenant.project.id,
        "The search box ignores accents",
        "Bug",
        "New",
        "Widget",
    )
    assert (item.path, item.version, item.submitted_by, item.archived) == ("/search", "3.1", "user_7", False)


async def test_feedback_type_defaults_to_other(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = {"project_key": tenant.project_key, "message": "Nice docs"}
    assert (await client.post("/api/v1/feedback/submit", json=body)).status_code == 200
    item = await _one(session_maker, FeedbackItem)
    assert isinstance(item, FeedbackItem)
    assert (item.type, item.path, item.version, item.submitted_by) == ("Other", None, None, None)


async def test_contact_message_is_stored(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/contact/submit"]
    response = await client.post("/api/v1/contact/submit", json=body, headers={"Origin": ALLOWED})
    assert (response.status_code, response.json()) == (200, {"status": "stored"})
    message = await _one(session_maker, ContactMessage)
    assert isinstance(message, ContactMessage)
    assert (message.project_id, message.name, message.email, message.subject, message.message) == (
        tenant.project.id,
        "Ada Lovelace",
        "ada@example.com",
        "Invoices",
        "Where can I download last year's invoices?",
    )
    assert (message.path, message.version, message.archived) == ("/billing", "12", False)


@pytest.mark.parametrize("endpoint", ["/api/v1/feedback/submit", "/api/v1/contact/submit"])
async def test_filled_honeypot_looks_stored_and_is_kept_as_spam(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], endpoint: str
) -> None:
    body = {**valid_bodies(tenant.project_key)[endpoint], "website": "http://spam.example"}
    response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
    assert (response.status_code, response.json()) == (200, {"status": "stored"})
    assert await stored_rows(session_maker) == 1  # never dropped: tests/integration/public/test_spam.py
    body["website"] = ""
    assert (await client.post(endpoint, json=body)).status_code == 200
    assert await stored_rows(session_maker) == 2


@pytest.mark.parametrize("endpoint", list(SUCCESS))
async def test_text_plain_json_is_accepted(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], endpoint: str
) -> None:
    """navigator.sendBeacon and preflight-free fetch() send JSON as text/plain."""
    body = json.dumps(valid_bodies(tenant.project_key)[endpoint])
    response = await client.post(
        endpoint, content=body, headers={"Content-Type": "text/plain;charset=UTF-8", "Origin": ALLOWED}
    )
    assert response.status_code == SUCCESS[endpoint]
    assert await stored_rows(session_maker) == 1


async def test_a_submission_is_in_its_own_project_only(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    body = valid_bodies(other_tenant.project_key)["/api/v1/rating/submit"]
    assert (await client.post("/api/v1/rating/submit", json=body)).status_code == 204
    rating = await _one(session_maker, Rating)
    assert isinstance(rating, Rating)
    assert rating.project_id == other_tenant.project.id


async def test_other_content_types_are_415(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    response = await client.post(
        "/api/v1/rating/submit",
        content=json.dumps(body),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": ALLOWED},
    )
    assert response.status_code == 415
    assert response.json()["error"] == "unsupported_media_type"
    assert response.headers["access-control-allow-origin"] == ALLOWED


async def test_feedback_is_readable_through_the_api(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/feedback/submit"]
    assert (
        await client.post("/api/v1/feedback/submit", json=body, headers={"Origin": ALLOWED})
    ).status_code == 200
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.read_headers)
    [item] = listed.json()["feedback"]
    one = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}", headers=tenant.headers
    )
    assert one.json() == item
    assert {k: item[k] for k in ("project_id", "message", "type", "status", "source", "path", "version")} == {
        "project_id": tenant.project_id,
        "message": "The search box ignores accents",
        "type": "Bug",
        "status": "New",
        "source": "Widget",
        "path": "/search",
        "version": "3.1",
    }
    assert (item["submitted_by"], item["archived"]) == ("user_7", False)
    assert item["created_at"].endswith("Z")


async def test_contact_message_is_readable_through_the_api(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/contact/submit"]
    assert (
        await client.post("/api/v1/contact/submit", json=body, headers={"Origin": ALLOWED})
    ).status_code == 200
    listed = await client.get(
        f"/api/v1/projects/{tenant.project_key}/contact-messages", headers=tenant.headers
    )
    [message] = listed.json()["contact_messages"]
    path = f"/api/v1/projects/{tenant.project_id}/contact-messages/{message['id']}"
    assert (await client.get(path, headers=tenant.headers)).json() == message
    expected = {k: v for k, v in body.items() if k != "project_key"}
    assert {k: message[k] for k in expected} == expected
    assert (message["project_id"], message["archived"]) == (tenant.project_id, False)
    assert message["created_at"].endswith("Z")


async def test_helpful_rating_is_readable_through_the_api(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/rating/submit"]
    assert (
        await client.post("/api/v1/rating/submit", json=body, headers={"Origin": ALLOWED})
    ).status_code == 204
    listed = await client.get(f"/api/v1/projects/{tenant.project_id}/ratings", headers=tenant.read_headers)
    [rating] = listed.json()["ratings"]
    assert {k: rating[k] for k in ("project_id", "value", "path", "version", "submitted_by", "archived")} == {
        "project_id": tenant.project_id,
        "value": False,
        "path": "/docs/install",
        "version": "2.4.1",
        "submitted_by": "user_42",
        "archived": False,
    }
    assert rating["created_at"].endswith("Z")


async def test_typed_rating_is_readable_through_the_api(client: AsyncTestClient, tenant: Tenant) -> None:
    body = valid_bodies(tenant.project_key)["/api/v1/ratings"]
    created = await client.post("/api/v1/ratings", json=body, headers={"Origin": ALLOWED})
    rating = (
        await client.get(
            f"/api/v1/projects/{tenant.project_id}/ratings/{created.json()['id']}", headers=tenant.headers
        )
    ).json()
    assert {
        k: rating[k] for k in ("id", "project_id", "rating_type", "value", "path", "version", "submitted_by")
    } == {
        "id": created.json()["id"],
        "project_id": tenant.project_id,
        "rating_type": "star",
        "value": {"type": "star", "value": 4, "max_stars": 5},
        "path": "/pricing",
        "version": "7",
        "submitted_by": "visitor-9",
    }
    assert rating["metadata"] == {"plan": "pro", "seats": 3, "trial": True, "ref": None}
    assert rating["archived"] is False
    stats = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ratings/stats/typed?type=star", headers=tenant.headers
    )
    assert (stats.json()["total"], stats.json()["average"]) == (1, 4.0)
