"""POST /projects/{pid}/ratings and /ratings/typed: the stored rating comes back whole; bad input is a 400
naming the field (value per type, max_stars, context fields)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from tests.factories import Tenant
from tests.rating_clock import rate_at

MOMENT = datetime(2026, 3, 4, 10, 15, 0, 123000, tzinfo=UTC)


def ratings_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/ratings{suffix}"


async def test_helpful_rating_is_created_in_simple_form(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    rate_at(monkeypatch, MOMENT)
    body = {"value": True, "path": "/docs/start", "version": "2.1.0", "submitted_by": "user_42"}
    response = await client.post(ratings_url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 200
    rating = response.json()
    assert set(rating) == {
        "id",
        "project_id",
        "value",
        "path",
        "version",
        "submitted_by",
        "submitted_by_verified",
        "archived",
        "created_at",
    }
    assert rating["project_id"] == tenant.project_id
    assert rating["value"] is True
    assert rating["path"] == "/docs/start"
    assert rating["version"] == "2.1.0"
    assert rating["submitted_by"] == "user_42"
    assert rating["archived"] is False
    assert rating["created_at"] == "2026-03-04T10:15:00.123Z"
    listed = await client.get(ratings_url(tenant), headers=tenant.headers)
    assert listed.json()["ratings"] == [rating]


async def test_helpful_rating_without_context_has_nulls(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.post(ratings_url(tenant), json={"value": False}, headers=tenant.headers)
    assert response.status_code == 200
    rating = response.json()
    assert rating["value"] is False
    assert rating["path"] is rating["version"] is rating["submitted_by"] is None


async def test_project_key_is_accepted_in_the_path(client: AsyncTestClient, tenant: Tenant) -> None:
    url = f"/api/v1/projects/{tenant.project_key}/ratings"
    response = await client.post(url, json={"value": True}, headers=tenant.headers)
    assert response.status_code == 200
    assert response.json()["project_id"] == tenant.project_id


async def test_unknown_project_is_404(client: AsyncTestClient, tenant: Tenant) -> None:
    url = "/api/v1/projects/0190b2b4-0000-7000-8000-000000000000/ratings"
    response = await client.post(url, json={"value": True}, headers=tenant.headers)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


async def test_star_rating_echoes_the_rating_object_with_default_max_stars(
    client: AsyncTestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    rate_at(monkeypatch, MOMENT)
    body = {
        "rating": {"type": "star", "value": 4},
        "context": {
            "path": "/pricing",
            "version": "7",
            "submitted_by": "u-1",
            "metadata": {"plan": "pro", "seats": 3, "ratio": 0.5, "beta": True, "ref": None},
        },
    }
    response = await client.post(ratings_url(tenant, "/typed"), json=body, headers=tenant.headers)
    assert response.status_code == 201
    assert response.json() == {
        "id": response.json()["id"],
        "project_id": tenant.project_id,
        "rating_type": "star",
        "value": {"type": "star", "value": 4, "max_stars": 5},
        "path": "/pricing",
        "version": "7",
        "submitted_by": "u-1",
        "metadata": {"plan": "pro", "seats": 3, "ratio": 0.5, "beta": True, "ref": None},
        "created_at": "2026-03-04T10:15:00.123Z",
        "archived": False,
        "submitted_by_verified": False,
    }


@pytest.mark.parametrize(
    ("rating", "echoed"),
    [
        ({"type": "helpful", "value": False}, {"type": "helpful", "value": False}),
        ({"type": "star", "value": 10, "max_stars": 10}, {"type": "star", "value": 10, "max_stars": 10}),
        ({"type": "star", "value": 1, "max_stars": 1}, {"type": "star", "value": 1, "max_stars": 1}),
        ({"type": "nps", "value": 0}, {"type": "nps", "value": 0}),
        ({"type": "nps", "value": 10}, {"type": "nps", "value": 10}),
    ],
)
async def test_typed_rating_without_context_omits_absent_fields(
    client: AsyncTestClient, tenant: Tenant, rating: dict[str, Any], echoed: dict[str, Any]
) -> None:
    response = await client.post(
        ratings_url(tenant, "/typed"), json={"rating": rating}, headers=tenant.headers
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "id",
        "project_id",
        "rating_type",
        "value",
        "created_at",
        "archived",
        "submitted_by_verified",
    }
    assert body["rating_type"] == rating["type"]
    assert body["value"] == echoed
    assert body["archived"] is False
    fetched = await client.get(ratings_url(tenant, f"/{body['id']}"), headers=tenant.headers)
    assert fetched.json() == body


async def test_helpful_typed_rating_appears_in_the_simple_list(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    body = {"rating": {"type": "helpful", "value": True}, "context": {"path": "/a"}}
    created = (await client.post(ratings_url(tenant, "/typed"), json=body, headers=tenant.headers)).json()
    listed = (await client.get(ratings_url(tenant), headers=tenant.headers)).json()["ratings"]
    assert [(r["id"], r["value"], r["path"]) for r in listed] == [(created["id"], True, "/a")]


def rating(type_: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"rating": {"type": type_, "value": value, **extra}}


def context(**fields: Any) -> dict[str, Any]:
    return {"rating": {"type": "nps", "value": 5}, "context": fields}


TYPED_INVALID = [
    pytest.param(rating("helpful", 1), "rating.value", id="helpful-int"),
    pytest.param(rating("helpful", "true"), "rating.value", id="helpful-string"),
    pytest.param(rating("star", 6), "rating.value", id="star-above-default-max"),
    pytest.param(rating("star", 0), "rating.value", id="star-zero"),
    pytest.param(rating("star", 4, max_stars=3), "rating.value", id="star-above-max"),
    pytest.param(rating("star", 4.5), "rating.value", id="star-fraction"),
    pytest.param(rating("star", True), "rating.value", id="star-boolean"),
    pytest.param(rating("star", 1, max_stars=0), "rating.max_stars", id="max-stars-0"),
    pytest.param(rating("star", 1, max_stars=11), "rating.max_stars", id="max-stars-11"),
    pytest.param(rating("star", 1, max_stars=2.5), "rating.max_stars", id="max-stars-fraction"),
    pytest.param(rating("nps", 11), "rating.value", id="nps-11"),
    pytest.param(rating("nps", -1), "rating.value", id="nps-negative"),
    pytest.param(rating("nps", 4.5), "rating.value", id="nps-fraction"),
    pytest.param(rating("nps", False), "rating.value", id="nps-boolean"),
    pytest.param(rating("bogus", 1), "rating.type", id="unknown-type"),
    pytest.param({"rating": {"value": 1}}, "rating", id="type-missing"),
    pytest.param({"context": {}}, "rating", id="rating-missing"),
    pytest.param(context(path="docs"), "context.path", id="path-no-slash"),
    pytest.param(context(path="/a\nb"), "context.path", id="path-control-char"),
    pytest.param(context(path="/" + "a" * 2048), "context.path", id="path-too-long"),
    pytest.param(context(version="v" * 101), "context.version", id="version-too-long"),
    pytest.param(context(submitted_by="a@b.c"), "context.submitted_by", id="submitted-by-pattern"),
    pytest.param(context(submitted_by="a" * 256), "context.submitted_by", id="submitted-by-too-long"),
    pytest.param(
        context(metadata={f"k{i}": i for i in range(21)}), "context.metadata", id="metadata-21-keys"
    ),
    pytest.param(context(metadata={"k" * 65: 1}), "context.metadata", id="metadata-key-too-long"),
    pytest.param(context(metadata={"": 1}), "context.metadata", id="metadata-key-empty"),
    pytest.param(context(metadata={"k": "v" * 501}), "context.metadata", id="metadata-value-too-long"),
    pytest.param(context(metadata={"k": {"nested": 1}}), "context.metadata", id="metadata-nested-object"),
    pytest.param(context(metadata={"k": [1]}), "context.metadata", id="metadata-array"),
    pytest.param(context(metadata=[1]), "context.metadata", id="metadata-not-object"),
]


@pytest.mark.parametrize(("body", "field"), TYPED_INVALID)
async def test_typed_validation_names_the_field(
    client: AsyncTestClient, tenant: Tenant, body: dict[str, Any], field: str
) -> None:
    response = await client.post(ratings_url(tenant, "/typed"), json=body, headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert field in response.json()["details"]
    assert (await client.get(ratings_url(tenant, "/typed?type=nps"), headers=tenant.headers)).json()[
        "pagination"
    ]["total"] == 0


async def test_metadata_at_the_limits_is_accepted(client: AsyncTestClient, tenant: Tenant) -> None:
    metadata = {f"{i:02d}" + "k" * 62: "v" * 500 for i in range(20)}
    response = await client.post(
        ratings_url(tenant, "/typed"), json=context(metadata=metadata), headers=tenant.headers
    )
    assert response.status_code == 201
    assert response.json()["metadata"] == metadata


HELPFUL_INVALID = [
    pytest.param({}, "value", id="value-missing"),
    pytest.param({"value": 1}, "value", id="value-int"),
    pytest.param({"value": "yes"}, "value", id="value-string"),
    pytest.param({"value": None}, "value", id="value-null"),
    pytest.param({"value": True, "path": "docs"}, "path", id="path-no-slash"),
    pytest.param({"value": True, "path": "/a\x7fb"}, "path", id="path-control-char"),
    pytest.param({"value": True, "path": "/" + "p" * 2048}, "path", id="path-too-long"),
    pytest.param({"value": True, "version": "v" * 101}, "version", id="version-too-long"),
    pytest.param({"value": True, "submitted_by": "Jane Doe"}, "submitted_by", id="submitted-by-pattern"),
    pytest.param({"value": True, "submitted_by": "x" * 256}, "submitted_by", id="submitted-by-too-long"),
    pytest.param({"value": True, "submitted_by": ""}, "submitted_by", id="submitted-by-empty"),
]


@pytest.mark.parametrize(("body", "field"), HELPFUL_INVALID)
async def test_helpful_validation_names_the_field(
    client: AsyncTestClient, tenant: Tenant, body: dict[str, Any], field: str
) -> None:
    response = await client.post(ratings_url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
    assert field in response.json()["details"]
    assert (await client.get(ratings_url(tenant), headers=tenant.headers)).json()["pagination"]["total"] == 0


async def test_malformed_json_is_400(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.post(
        ratings_url(tenant, "/typed"),
        content=b'{"rating": ',
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
