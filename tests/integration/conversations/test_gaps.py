"""What a support team and a person expect around their conversations: a person known only by a token
finds what they submitted with it; the team's answer in a contact message's thread marks the message
answered; a subject marked spam leaves the person's list; the team's inbox lists them all; the erasure
preview counts them."""

from __future__ import annotations

from litestar.testing import AsyncTestClient

from app.db.models import User
from tests.console_helpers import Console
from tests.factories import Tenant
from tests.integration.conversations.helpers import (
    ORIGIN,
    Person,
    identity_secret,
    mine,
    signed_contact,
    signed_feedback,
    team_url,
)


async def test_submits_carrying_a_token_open_the_persons_conversations(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    token = ada.token(email="ada@work.example")
    feedback = {"project_key": tenant.project_key, "message": "Export drops a row", "user_token": token}
    sent = await client.post("/api/v1/feedback/submit", json=feedback, headers=ORIGIN)
    assert sent.status_code == 200, sent.text
    contact = {
        "project_key": tenant.project_key,
        "name": "Ada",
        "email": "ada@visitor.example",
        "message": "Where is my invoice?",
        "user_token": token,
    }
    sent = await client.post("/api/v1/contact/submit", json=contact, headers=ORIGIN)
    assert sent.status_code == 200, sent.text
    forged = {**feedback, "user_token": Person(tenant, "ids_" + "o" * 43, "user_ada").token()}
    assert (await client.post("/api/v1/feedback/submit", json=forged, headers=ORIGIN)).status_code == 200

    listed = await client.get(
        "/api/v1/conversations", params={"project_key": tenant.project_key, "token": token}, headers=ORIGIN
    )
    assert listed.status_code == 200, listed.text
    kinds = sorted(t["subject"]["kind"] for t in listed.json()["conversations"])
    assert kinds == ["contact_message", "feedback"]
    items = await client.get(f"/api/v1/projects/{tenant.project_id}/feedback", headers=tenant.headers)
    by = sorted((i.get("submitted_by", ""), i["submitted_by_verified"]) for i in items.json()["feedback"])
    assert by == [("", False), ("user_ada", True)]

    mismatch = {**feedback, "submitted_by": "user_bob"}
    refused = await client.post("/api/v1/feedback/submit", json=mismatch, headers=ORIGIN)
    assert refused.status_code == 400 and refused.json()["details"].startswith("submitted_by")
