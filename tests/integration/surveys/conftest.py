"""Helpers for the survey tests: a survey with one question of each type, created through the API."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient

from tests.factories import Tenant

ALLOWED = "https://site.example"


def surveys_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/surveys{suffix}"


def every_type(**fields: Any) -> dict[str, Any]:
    """A survey in en and de with a question of each type."""

    def texts(en: str, de: str) -> dict[str, str]:
        return {"en": en, "de": de}

    return {
        "name": "Every type",
        "languages": ["en", "de"],
        "questions": [
            {"id": "score", "type": "nps", "required": True, "text": texts("Recommend?", "Empfehlen?")},
            {"id": "stars", "type": "rating", "scale": 5, "text": texts("Stars?", "Sterne?")},
            {
                "id": "plan",
                "type": "single_choice",
                "text": texts("Plan?", "Tarif?"),
                "choices": [
                    {"id": "free", "text": texts("Free", "Gratis")},
                    {"id": "pro", "text": texts("Pro", "Pro")},
                ],
            },
            {
                "id": "uses",
                "type": "multiple_choice",
                "text": texts("Uses?", "Nutzung?"),
                "choices": [
                    {"id": "docs", "text": texts("Docs", "Doku")},
                    {"id": "api", "text": texts("API", "API")},
                    {"id": "ui", "text": texts("UI", "UI")},
                ],
            },
            {"id": "again", "type": "boolean", "text": texts("Again?", "Wieder?")},
            {"id": "why", "type": "open_text", "text": texts("Why?", "Warum?")},
        ],
        "status": "active",
        **fields,
    }


async def create_survey(client: AsyncTestClient, tenant: Tenant, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(surveys_url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def submit(
    client: AsyncTestClient, tenant: Tenant, survey_id: str, answers: list[dict[str, Any]], **fields: Any
) -> Any:
    body = {"project_key": tenant.project_key, "answers": answers, "language": "en", **fields}
    return await client.post(
        f"/api/v1/surveys/{survey_id}/responses/submit", json=body, headers={"Origin": ALLOWED}
    )
