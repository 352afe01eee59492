"""Surveys through the REST API: create (as given, from templates), list, read, change, activate, delete."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from tests.factories import Tenant


def surveys_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/surveys{suffix}"


def a_survey(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Checkout",
        "languages": ["en", "de"],
        "questions": [
            {
                "id": "score",
                "type": "nps",
                "required": True,
                "text": {"en": "Recommend us?", "de": "Empfehlen Sie uns?"},
                "next": [{"if": 10, "goto": "end"}],
            },
            {
                "id": "why",
                "type": "single_choice",
                "text": {"en": "Why?", "de": "Warum?"},
                "choices": [
                    {"id": "price", "text": {"en": "Price", "de": "Preis"}},
                    {"id": "speed", "text": {"en": "Speed", "de": "Tempo"}},
                ],
            },
        ],
        "trigger": {"pages": ["/docs/**"], "seconds_on_page": 5},
        **fields,
    }


async def create(client: AsyncTestClient, tenant: Tenant, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(surveys_url(tenant), json=body, headers=tenant.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def test_a_survey_reads_back_as_it_was_given(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await create(client, tenant, a_survey())
    assert created["status"] == "draft"
    assert created["cooldown_days"] == 90
    assert created["response_count"] == 0
    assert created["display"] == "modal"
    assert created["audience"] == {"sample_percent": 100, "verified_only": False, "languages": []}
    assert created["questions"][0]["next"] == [{"if": 10, "goto": "end"}]
    got = await client.get(surveys_url(tenant, f"/{created['id']}"), headers=tenant.read_headers)
    assert got.json() == created
    listed = await client.get(surveys_url(tenant), headers=tenant.read_headers)
    assert listed.json()["surveys"] == [created]
    assert listed.json()["pagination"] == {"page": 1, "limit": 20, "total": 1, "total_pages": 1}


@pytest.mark.parametrize("template", ["nps", "csat", "ces", "pmf", "churn_reason"])
async def test_a_template_makes_a_draft_in_three_languages_that_can_be_activated(
    client: AsyncTestClient, tenant: Tenant, template: str
) -> None:
    created = await create(client, tenant, {"template": template})
    assert created["status"] == "draft"
    assert created["languages"] == ["en", "de", "sv"]
    for question in created["questions"]:
        assert set(question["text"]) == {"en", "de", "sv"}
        for choice in question.get("choices", []):
            assert set(choice["text"]) == {"en", "de", "sv"}
    activated = await client.patch(
        surveys_url(tenant, f"/{created['id']}"), json={"status": "active"}, headers=tenant.headers
    )
    assert activated.status_code == 200, activated.text
    assert activated.json()["status"] == "active"


async def test_a_template_takes_a_name(client: AsyncTestClient, tenant: Tenant) -> None:
    created = await create(client, tenant, {"template": "nps", "name": "Quarterly NPS"})
    assert created["name"] == "Quarterly NPS"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"languages": ["en", "de", "sv"]}, "questions[0].text.sv"),
        (
            {
                "questions": [
                    {"id": "q", "type": "boolean", "text": {"en": "Ok?"}, "next": [{"if": True, "goto": "x"}]}
                ]
            },
            "questions[0].next[0].goto",
        ),
    ],
)
async def test_activating_names_what_is_missing_or_points_nowhere(
    client: AsyncTestClient, tenant: Tenant, change: dict[str, Any], field: str
) -> None:
    created = await create(
        client,
        tenant,
        a_survey(
            languages=["en", "de", "sv"] if "languages" in change else ["en"],
            **({} if "languages" in change else {"questions": change["questions"]}),
        ),
    )
    response = await client.patch(
        surveys_url(tenant, f"/{created['id']}"), json={"status": "active"}, headers=tenant.headers
    )
    assert response.status_code == 400
    assert response.json()["details"].startswith(field)
    still = await client.get(surveys_url(tenant, f"/{created['id']}"), headers=tenant.headers)
    assert still.json()["status"] == "draft"


async def test_skip_logic_back_to_an_earlier_question_is_refused_on_activation(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    body = a_survey()
    body["questions"][1]["next"] = [{"if": "price", "goto": "score"}]
    created = await create(client, tenant, body)
    response = await client.patch(
        surveys_url(tenant, f"/{created['id']}"), json={"status": "active"}, headers=tenant.headers
    )
    assert response.status_code == 400
    assert response.json()["details"].startswith("questions[1].next[0].goto: 'score' is not after 'why'")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"questions": [{"id": "Bad Id", "type": "boolean", "text": {"en": "x"}}]}, "questions[0].id"),
        ({"questions": [{"id": "a", "type": "rating", "text": {"en": "x"}}]}, "questions[0].scale"),
        ({"questions": [{"id": "a", "type": "maybe", "text": {"en": "x"}}]}, "questions[0].type"),
        ({"questions": [{"id": "a", "type": "boolean", "text": {"fr": "x"}}]}, "questions[0].text.fr"),
        (
            {"questions": [{"id": "a", "type": "single_choice", "text": {"en": "x"}, "choices": []}]},
            "questions[0].choices",
        ),
        (
            {
                "questions": [
                    {"id": "a", "type": "nps", "text": {"en": "x"}, "next": [{"if": 11, "goto": "end"}]}
                ]
            },
            "questions[0].next[0].if",
        ),
        ({"trigger": {"pages": ["docs/*"]}}, "trigger.pages[0]"),
        ({"trigger": {"pages": ["/docs/***"]}}, "trigger.pages[0]"),
        ({"languages": ["en", "en"]}, "languages"),
        ({"languages": ["english"]}, "languages[0]"),
        ({"audience": {"sample_percent": 0}}, "audience.sample_percent"),
        (
            {"questions": [{"id": f"q{i}", "type": "boolean", "text": {"en": "x"}} for i in range(11)]},
            "questions",
        ),
    ],
)
async def test_bad_definitions_are_refused_naming_the_field(
    client: AsyncTestClient, tenant: Tenant, body: dict[str, Any], field: str
) -> None:
    response = await client.post(
        surveys_url(tenant), json={"name": "S", "languages": ["en"], **body}, headers=tenant.headers
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "invalid_request"
    assert field in response.json()["details"]


async def test_a_patch_changes_only_what_it_sends_and_delete_removes(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    created = await create(client, tenant, a_survey())
    url = surveys_url(tenant, f"/{created['id']}")
    patched = await client.patch(url, json={"name": "Renamed", "cooldown_days": 7}, headers=tenant.headers)
    assert patched.status_code == 200
    assert patched.json()["name"] == "Renamed"
    assert patched.json()["cooldown_days"] == 7
    assert patched.json()["questions"] == created["questions"]
    assert (await client.delete(url, headers=tenant.headers)).status_code == 204
    assert (await client.get(url, headers=tenant.headers)).status_code == 404


async def test_a_read_token_cannot_create(client: AsyncTestClient, tenant: Tenant) -> None:
    response = await client.post(surveys_url(tenant), json=a_survey(), headers=tenant.read_headers)
    assert response.status_code == 403


async def test_another_organizations_survey_is_not_found(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    created = await create(client, tenant, a_survey())
    response = await client.get(surveys_url(other_tenant, f"/{created['id']}"), headers=other_tenant.headers)
    assert response.status_code == 404
