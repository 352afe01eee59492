"""How body validation failures are worded: the field is named, nested fields by their path."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar, post
from litestar.testing import TestClient

from app.errors import EXCEPTION_HANDLERS
from app.schemas.rating_requests import PublicTypedRatingBody


@post("/typed")
async def typed(data: PublicTypedRatingBody) -> None:
    """A stand-in route: the body type is the one the public typed endpoint reads."""


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(Litestar([typed], exception_handlers=EXCEPTION_HANDLERS)) as test_client:
        yield test_client


KEY = "0190b2b4-0000-4000-8000-000000000000"


@pytest.mark.parametrize(
    ("body", "details"),
    [
        ({"project_key": "nope", "rating": {"type": "nps", "value": 3}}, "project_key: Invalid UUID"),
        (
            {"project_key": 5, "rating": {"type": "nps", "value": 3}},
            "project_key: Expected `uuid`, got `int`",
        ),
        ({"rating": {"type": "nps", "value": 3}}, "project_key: is required"),
        ({"project_key": KEY, "rating": {"value": 3}}, "rating.type: is required"),
        (
            {"project_key": KEY, "rating": {"type": "stars", "value": 3}},
            "rating.type: Invalid enum value 'stars'",
        ),
        ({"project_key": KEY, "rating": 3}, "rating: Expected `object`, got `int`"),
    ],
)
def test_body_problems_name_the_field(client: Any, body: dict[str, Any], details: str) -> None:
    response = client.post("/typed", json=body)
    assert response.status_code == 400
    assert response.json() == {"error": "invalid_request", "details": details}


def test_absent_and_malformed_bodies_name_the_body(client: Any) -> None:
    absent = client.post("/typed", content=b"", headers={"Content-Type": "application/json"})
    assert absent.json() == {"error": "invalid_request", "details": "body: a JSON object is required"}
    malformed = client.post("/typed", content=b"{,", headers={"Content-Type": "application/json"})
    assert malformed.status_code == 400
    assert malformed.json()["details"].startswith("body: JSON is malformed")
