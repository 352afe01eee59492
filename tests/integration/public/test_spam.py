"""Spam from the widgets' forms: answered like a success, stored apart, out of every list and count
until a member marks it not spam, and counted in /metrics."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from prometheus_client import generate_latest

from app.operations.metrics import REGISTRY
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, valid_bodies

FEEDBACK = "/api/v1/feedback/submit"
CONTACT = "/api/v1/contact/submit"
LISTS = {FEEDBACK: ("feedback", "feedback"), CONTACT: ("contact-messages", "contact_messages")}


def scraped() -> str:
    """What /metrics serves this process's scraper (the test client's address is no allowed network)."""
    return generate_latest(REGISTRY).decode()


def spam_counted(metrics: str, endpoint: str, reason: str) -> float:
    match = re.search(
        rf'^hearken_spam_submissions_total\{{endpoint="{endpoint}",reason="{reason}"\}} (\S+)$', metrics, re.M
    )
    return float(match.group(1)) if match else 0.0


async def listed(
    client: AsyncTestClient, tenant: Tenant, endpoint: str, query: str = ""
) -> list[dict[str, Any]]:
    path, key = LISTS[endpoint]
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/{path}?{query}", headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["pagination"]["total"] == len(body[key])
    return list(body[key])


@pytest.mark.parametrize("endpoint", [FEEDBACK, CONTACT])
async def test_a_filled_honeypot_or_a_hasty_form_is_answered_alike_and_stored_as_spam(
    client: AsyncTestClient, tenant: Tenant, endpoint: str
) -> None:
    label = "feedback" if endpoint == FEEDBACK else "contact"
    metrics = scraped()
    before = (spam_counted(metrics, label, "honeypot"), spam_counted(metrics, label, "too_fast"))
    base = valid_bodies(tenant.project_key)[endpoint]
    bodies = {
        "bot-honeypot": {
            **base,
            "message": "bot-honeypot",
            "website": "https://spam.example",
            "elapsed_ms": 9000,
        },
        "bot-fast": {**base, "message": "bot-fast", "elapsed_ms": 300},
        "person": {**base, "message": "person", "elapsed_ms": 2500},
        "api-client": {**base, "message": "api-client"},
    }
    answers = {}
    for name, body in bodies.items():
        response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
        answers[name] = (response.status_code, response.content)
    assert len(set(answers.values())) == 1 and answers["person"][0] == 200  # a bot learns nothing

    assert sorted(row["message"] for row in await listed(client, tenant, endpoint)) == [
        "api-client",
        "person",
    ]
    spam = await listed(client, tenant, endpoint, "spam=true")
    assert sorted(row["message"] for row in spam) == ["bot-fast", "bot-honeypot"]
    assert all(row["spam"] is True for row in spam)

    project = (await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)).json()
    if endpoint == FEEDBACK:
        assert project["feedback_count"] == 2
    metrics = scraped()
    after = (spam_counted(metrics, label, "honeypot"), spam_counted(metrics, label, "too_fast"))
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)


async def test_marking_feedback_not_spam_lists_and_counts_it(client: AsyncTestClient, tenant: Tenant) -> None:
    body = {**valid_bodies(tenant.project_key)[FEEDBACK], "elapsed_ms": 10}
    assert (await client.post(FEEDBACK, json=body, headers={"Origin": ALLOWED})).status_code == 200
    [item] = await listed(client, tenant, FEEDBACK, "spam=true")
    url = f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}"
    patched = await client.patch(url, json={"spam": False}, headers=tenant.headers)
    assert patched.status_code == 200 and patched.json()["spam"] is False
    assert [row["id"] for row in await listed(client, tenant, FEEDBACK)] == [item["id"]]
    assert await listed(client, tenant, FEEDBACK, "spam=true") == []
    project = (await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)).json()
    assert project["feedback_count"] == 1
    history = (await client.get(f"{url}/history", headers=tenant.headers)).json()["history"]
    assert [(change["field"], change["from"], change["to"]) for change in history] == [
        ("spam", "true", "false")
    ]

    again = await client.patch(url, json={"spam": True}, headers=tenant.headers)
    assert again.status_code == 200 and again.json()["spam"] is True
    project = (await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)).json()
    assert project["feedback_count"] == 0
    assert (await client.patch(url, json={"spam": "no"}, headers=tenant.headers)).status_code == 400


async def test_marking_a_contact_message_not_spam_lists_it(client: AsyncTestClient, tenant: Tenant) -> None:
    body = {**valid_bodies(tenant.project_key)[CONTACT], "website": "x"}
    assert (await client.post(CONTACT, json=body, headers={"Origin": ALLOWED})).status_code == 200
    [record] = await listed(client, tenant, CONTACT, "spam=true")
    url = f"/api/v1/projects/{tenant.project_id}/contact-messages/{record['id']}"
    assert (await client.patch(url, json={"spam": False}, headers=tenant.read_headers)).status_code == 403
    patched = await client.patch(url, json={"spam": False}, headers=tenant.headers)
    assert patched.status_code == 200 and patched.json()["spam"] is False
    assert [row["id"] for row in await listed(client, tenant, CONTACT)] == [record["id"]]
    unchanged = await client.patch(url, json={}, headers=tenant.headers)
    assert unchanged.status_code == 200 and unchanged.json()["spam"] is False
    assert (await client.patch(url, json={"spam": 1}, headers=tenant.headers)).status_code == 400


async def test_a_negative_or_fractional_elapsed_time(client: AsyncTestClient, tenant: Tenant) -> None:
    """A negative time is under the threshold too (a clock set back is no person's pause); a number
    with a fraction is no count of milliseconds."""
    base = valid_bodies(tenant.project_key)[FEEDBACK]
    negative = await client.post(FEEDBACK, json={**base, "elapsed_ms": -50280.0}, headers={"Origin": ALLOWED})
    assert negative.status_code == 200
    assert len(await listed(client, tenant, FEEDBACK, "spam=true")) == 1
    fraction = await client.post(FEEDBACK, json={**base, "elapsed_ms": 2.5}, headers={"Origin": ALLOWED})
    assert fraction.status_code == 400 and "elapsed_ms" in fraction.json()["details"]
