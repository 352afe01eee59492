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


async def test_the_team_inbox_lists_conversations_newest_first_and_filters_the_unread(
    client: AsyncTestClient, console: Console, tenant: Tenant, owner: User
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, ada, "Export drops a row")
    await signed_contact(client, ada, "Where is my <b>invoice</b>?", "ada@visitor.example")
    contact, feedback = await mine(client, ada)
    sent = await client.post(
        f"/api/v1/conversations/{feedback['id']}/messages",
        params=ada.query(),
        json={"message": "Still broken in 3.1"},
        headers=ORIGIN,
    )
    assert sent.status_code == 201, sent.text

    unread = await client.get(team_url(tenant), params={"unread": "true"}, headers=tenant.read_headers)
    assert unread.status_code == 200, unread.text
    assert [t["id"] for t in unread.json()["conversations"]] == [feedback["id"]]
    assert unread.json()["pagination"]["total"] == 1
    everything = await client.get(team_url(tenant), headers=tenant.read_headers)
    assert [t["id"] for t in everything.json()["conversations"]] == [feedback["id"], contact["id"]]

    await console.login(owner.email)
    project = await console.get(f"/projects/{tenant.project_id}/feedback")
    assert f'href="/projects/{tenant.project_id}/conversations"' in project.text
    page = await console.get(f"/projects/{tenant.project_id}/conversations")
    assert page.status_code == 200, page.text
    assert page.text.index("Still broken in 3.1") < page.text.index("Where is my &lt;b&gt;invoice")
    assert page.text.count("1 unread") == 1
    assert f"/projects/{tenant.project_id}/conversations/{feedback['id']}" in page.text
    assert f"/projects/{tenant.project_id}/contact/{contact['subject']['id']}#conversation" in page.text
    only_unread = await console.get(f"/projects/{tenant.project_id}/conversations?unread=true")
    assert "Still broken in 3.1" in only_unread.text and "invoice" not in only_unread.text
    await console.get(f"/projects/{tenant.project_id}/conversations/{feedback['id']}")
    read = await console.get(f"/projects/{tenant.project_id}/conversations?unread=true")
    assert "Still broken" not in read.text and "Nothing unread" in read.text


async def test_the_teams_message_answers_a_contact_message_and_spam_leaves_the_persons_list(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_contact(client, ada, "Where is my invoice?", "ada@visitor.example")
    await signed_feedback(client, ada, "Buy cheap pills")
    feedback, contact = await mine(client, ada)
    message_url = f"/api/v1/projects/{tenant.project_id}/contact-messages/{contact['subject']['id']}"
    answered = await client.post(
        team_url(tenant, contact["id"]) + "/messages", json={"message": "Attached."}, headers=tenant.headers
    )
    assert answered.status_code == 201, answered.text
    read = await client.get(message_url, headers=tenant.headers)
    assert read.status_code == 200 and read.json()["status"] == "Answered", read.text

    item_url = f"/api/v1/projects/{tenant.project_id}/feedback/{feedback['subject']['id']}"
    marked = await client.patch(item_url, json={"spam": True}, headers=tenant.headers)
    assert marked.status_code == 200, marked.text
    assert [t["id"] for t in await mine(client, ada)] == [contact["id"]]
    gone = await client.get(f"/api/v1/conversations/{feedback['id']}", params=ada.query(), headers=ORIGIN)
    assert gone.status_code == 404, gone.text
    marked = await client.patch(message_url, json={"spam": True}, headers=tenant.headers)
    assert marked.status_code == 200, marked.text
    assert await mine(client, ada) == []


async def test_the_erasure_preview_counts_the_persons_conversations(
    client: AsyncTestClient, console: Console, tenant: Tenant, owner: User
) -> None:
    ada = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, ada, "Export drops a row")
    await console.login(owner.email)
    await console.get("/privacy")
    preview = await console.post("/privacy", {"submitted_by": ada.id, "email": "", "step": "preview"})
    assert "1 feedback item, 0 ratings, 0 contact messages, 1 conversation and" in preview.text
