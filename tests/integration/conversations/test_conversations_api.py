"""Conversations through both APIs: a person identified by the project's identity secret (signature or
token) sees only their own threads, opened by their signed feedback and contact messages; the team reads
and answers them; unread counts follow what each side has read; contact replies join the thread; bad
input is refused naming the field."""

from __future__ import annotations

import time

import jwt
import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ConversationMessage
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


@pytest.fixture
async def ada(client: AsyncTestClient, tenant: Tenant) -> Person:
    person = Person(tenant, await identity_secret(client, tenant), "user_ada")
    await signed_feedback(client, person, "Export to CSV drops the last row")
    await signed_contact(client, person, "Where is my invoice?", "ada@visitor.example")
    return person


async def test_a_person_and_the_team_talk_in_the_thread_of_a_signed_feedback_item(
    client: AsyncTestClient, tenant: Tenant, ada: Person
) -> None:
    threads = await mine(client, ada)
    assert [t["subject"]["kind"] for t in threads] == ["contact_message", "feedback"]
    feedback = threads[1]
    assert set(feedback) == {"id", "subject", "messages", "unread", "updated_at"}
    (opening,) = feedback["messages"]
    assert opening["from"] == "person" and opening["message"] == "Export to CSV drops the last row"
    assert set(opening) == {"id", "from", "message", "created_at"}
    assert feedback["unread"] == 0
    listed = await client.get(team_url(tenant), headers=tenant.read_headers)
    assert listed.status_code == 200, listed.text
    assert listed.json()["pagination"]["total"] == 2
    assert {t["id"] for t in listed.json()["conversations"]} == {t["id"] for t in threads}

    answered = await client.post(
        team_url(tenant, feedback["id"]) + "/messages",
        json={"message": "Fixed in 3.2, thanks!"},
        headers=tenant.headers,
    )
    assert answered.status_code == 201, answered.text
    assert answered.json()["from"] == "team" and answered.json()["id"] > opening["id"]

    unread_now = (await mine(client, ada))[0]
    assert unread_now["id"] == feedback["id"]
    assert unread_now["unread"] == 1 and unread_now["updated_at"] == answered.json()["created_at"]
    read = await client.get(f"/api/v1/conversations/{feedback['id']}", params=ada.query(), headers=ORIGIN)
    assert read.status_code == 200, read.text
    assert [m["message"] for m in read.json()["messages"]][-1] == "Fixed in 3.2, thanks!"
    assert (await mine(client, ada))[0]["unread"] == 0

    sent = await client.post(
        f"/api/v1/conversations/{feedback['id']}/messages",
        params=ada.query(),
        json={"message": "Works now!"},
        headers=ORIGIN,
    )
    assert sent.status_code == 201, sent.text
    team_view = await client.get(team_url(tenant, feedback["id"]), headers=tenant.headers)
    assert team_view.json()["unread"] == 1
    after = await client.get(
        f"/api/v1/conversations/{feedback['id']}",
        params=ada.query(after=answered.json()["id"]),
        headers=ORIGIN,
    )
    assert [m["message"] for m in after.json()["messages"]] == ["Works now!"]
    again = await client.get(team_url(tenant, feedback["id"]), headers=tenant.headers)
    assert again.json()["unread"] == 0


async def test_contact_replies_appear_as_the_teams_messages(
    client: AsyncTestClient, tenant: Tenant, ada: Person
) -> None:
    contact = (await mine(client, ada))[0]
    replied = await client.post(
        f"/api/v1/projects/{tenant.project_id}/contact-messages/{contact['subject']['id']}/replies",
        json={"message": "It is attached."},
        headers=tenant.headers,
    )
    assert replied.status_code == 201, replied.text
    thread = (await mine(client, ada))[0]
    assert thread["id"] == contact["id"]
    assert [(m["from"], m["message"]) for m in thread["messages"]] == [
        ("person", "Where is my invoice?"),
        ("team", "It is attached."),
    ]
    assert thread["unread"] == 1


async def test_a_token_identifies_the_person_and_a_bearer_header_too(
    client: AsyncTestClient, ada: Person
) -> None:
    query = {"project_key": ada.tenant.project_key, "token": ada.token(email="ada@work.example", name="Ada")}
    response = await client.get("/api/v1/conversations", params=query, headers=ORIGIN)
    assert response.status_code == 200, response.text
    assert len(response.json()["conversations"]) == 2
    bearer = await client.get(
        "/api/v1/conversations",
        params={"project_key": ada.tenant.project_key},
        headers={**ORIGIN, "Authorization": f"Bearer {ada.token()}"},
    )
    assert bearer.status_code == 200, bearer.text


async def test_nobody_else_reads_or_writes_a_persons_conversation(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant, ada: Person
) -> None:
    cid = (await mine(client, ada))[0]["id"]
    bob = Person(tenant, ada.secret, "user_bob")
    assert await mine(client, bob) == []
    for method, path in (
        ("GET", f"/api/v1/conversations/{cid}"),
        ("POST", f"/api/v1/conversations/{cid}/messages"),
    ):
        response = await client.request(
            method, path, params=bob.query(), json={"message": "hi"}, headers=ORIGIN
        )
        assert response.status_code == 404, response.text
        assert response.json()["details"].startswith("conversation_id")
    other = await client.get(
        team_url(other_tenant, cid).replace(other_tenant.project_id, tenant.project_id),
        headers=other_tenant.headers,
    )
    assert other.status_code in (403, 404)
    own_project_other_id = await client.get(team_url(other_tenant, cid), headers=other_tenant.headers)
    assert own_project_other_id.status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"user": "user_ada"},
        {"user": "user_ada", "sig": "0" * 64},
        {"token": "not.a.token"},
        {"token": "expired"},
        {"token": "other-secret"},
    ],
)
async def test_without_a_valid_identity_the_answer_is_401_naming_it(
    client: AsyncTestClient, ada: Person, query: dict[str, str]
) -> None:
    if query.get("token") == "expired":
        query = {"token": jwt.encode({"sub": ada.id, "exp": int(time.time()) - 3600}, ada.secret, "HS256")}
    elif query.get("token") == "other-secret":
        query = {
            "token": jwt.encode({"sub": ada.id, "exp": int(time.time()) + 60}, "ids_" + "o" * 43, "HS256")
        }
    response = await client.get(
        "/api/v1/conversations", params={"project_key": ada.tenant.project_key, **query}, headers=ORIGIN
    )
    assert response.status_code == 401, response.text
    assert response.json()["error"] == "unauthorized"
    assert response.json()["details"].split(":")[0] in {"token", "sig"}


async def test_messages_are_checked_and_a_persons_rate_is_limited(
    client: AsyncTestClient, tenant: Tenant, ada: Person
) -> None:
    cid = (await mine(client, ada))[0]["id"]
    url = f"/api/v1/conversations/{cid}/messages"
    for body in ({"message": "x" * 5001}, {"message": "   "}, {}):
        refused = await client.post(url, params=ada.query(), json=body, headers=ORIGIN)
        assert refused.status_code == 400, refused.text
        assert refused.json()["details"].startswith("message")
    team = await client.post(
        team_url(tenant, cid) + "/messages", json={"message": "x" * 5001}, headers=tenant.headers
    )
    assert team.status_code == 400 and team.json()["details"].startswith("message")
    statuses = []
    for n in range(21):
        sent = await client.post(url, params=ada.query(), json={"message": f"message {n}"}, headers=ORIGIN)
        statuses.append(sent.status_code)
    assert statuses == [201] * 20 + [429]
    assert sent.json()["details"].startswith("message")


async def test_erasure_takes_a_persons_conversations_by_id_and_by_the_address_of_their_token(
    client: AsyncTestClient, tenant: Tenant, ada: Person, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    bob = Person(tenant, ada.secret, "user_bob")
    await signed_feedback(client, bob, "The dark mode is too dark")
    with_address = {"project_key": tenant.project_key, "token": bob.token(email="Bob@Example.org")}
    assert (await client.get("/api/v1/conversations", params=with_address, headers=ORIGIN)).status_code == 200

    erased = await client.post("/api/v1/privacy/erase", json={"submitted_by": ada.id}, headers=tenant.headers)
    assert erased.status_code == 200, erased.text
    assert erased.json()["conversations"] == 2
    assert await mine(client, ada) == []
    by_address = await client.post(
        "/api/v1/privacy/erase", json={"email": "bob@example.org"}, headers=tenant.headers
    )
    assert by_address.json()["conversations"] == 1
    assert await mine(client, bob) == []
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(ConversationMessage)) == 0
