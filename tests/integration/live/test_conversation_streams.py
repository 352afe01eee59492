"""The live streams of a conversation in one process: the person's (widget) and the team's (console)
get each message as an event whose id is the message id, resume after `Last-Event-ID`, and are refused
like the conversation API (another person's conversation 404) and beyond the open-stream limits (429)."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlencode

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.db.identity_secret import user_signature
from app.db.models import User
from app.live import fanout
from app.live.streams import OpenStreams
from tests.console_helpers import Console
from tests.factories import DEFAULT_ORIGINS, Tenant
from tests.integration.live.sse_client import sse

ORIGIN = {"Origin": DEFAULT_ORIGINS[0]}


async def identity_secret(client: AsyncTestClient[Litestar], tenant: Tenant) -> str:
    made = await client.post(f"/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers)
    secret: str = made.json()["secret"]
    return secret


async def identified_conversation(
    client: AsyncTestClient[Litestar], tenant: Tenant, person: str, secret: str | None = None
) -> tuple[str, str]:
    """(conversation id, the person's identity query) after the person sent feedback signed."""
    secret = secret or await identity_secret(client, tenant)
    sig = user_signature(secret, person)
    sent = await client.post("/api/v1/feedback/submit", headers=ORIGIN, json={
        "project_key": str(tenant.project.key), "message": "Where is my export?",
        "submitted_by": person, "user_signature": sig})  # fmt: skip
    assert sent.status_code == 200, sent.text
    identity = urlencode({"project_key": str(tenant.project.key), "user": person, "sig": sig})
    listed = await client.get(f"/api/v1/conversations?{identity}", headers=ORIGIN)
    return listed.json()["conversations"][0]["id"], identity


async def team_says(client: AsyncTestClient[Litestar], tenant: Tenant, cid: str, text: str) -> int:
    answer = await client.post(f"/api/v1/projects/{tenant.project_id}/conversations/{cid}/messages",
                               headers=tenant.headers, json={"message": text})  # fmt: skip
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


async def test_both_sides_see_each_message_live_and_a_reconnect_resumes(
    app: Litestar, tenant: Tenant, console: Console, owner: User
) -> None:
    await console.login(owner.email)
    client = console.client
    signed_in = {"Cookie": "; ".join(f"{name}={value}" for name, value in client.cookies.items())}
    cid, identity = await identified_conversation(client, tenant, "ada")
    events = f"/api/v1/conversations/{cid}/events?{identity}"
    console_events = f"/projects/{tenant.project_id}/conversations/{cid}/events"
    async with sse(app, events, ORIGIN) as person, sse(app, console_events, signed_in) as team:
        assert person.status == 200 and person.headers["content-type"].startswith("text/event-stream")
        assert team.status == 200, team.body
        first = await team_says(client, tenant, cid, "We are on it <b>now</b>")
        got = await person.next_event()
        assert (got.id, got.event) == (str(first), "message")
        assert json.loads(got.data) == {
            **json.loads(got.data),
            "from": "team",
            "message": "We are on it <b>now</b>",
        }
        assert (await team.next_event()).id == str(first)
        answer = await client.post(f"/api/v1/conversations/{cid}/messages?{identity}", headers=ORIGIN,
                                   json={"message": "Thanks!"})  # fmt: skip
        assert answer.status_code == 201
        assert json.loads((await team.next_event()).data)["from"] == "person"
        assert (await person.next_event()).id == str(answer.json()["id"])
    missed = [await team_says(client, tenant, cid, f"While you were away {n}") for n in range(2)]
    async with sse(app, events, {**ORIGIN, "Last-Event-ID": str(first)}) as person:
        resumed = [(await person.next_event()).id for _ in range(3)]
    assert resumed == [str(answer.json()["id"]), *map(str, missed)]


async def test_streams_are_refused_like_the_conversation_api_and_beyond_their_limits(
    app: Litestar, client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    secret = await identity_secret(client, tenant)
    cid, identity = await identified_conversation(client, tenant, "ada", secret)
    _, someone_else = await identified_conversation(client, tenant, "bob", secret)
    other = await client.get(f"/api/v1/conversations/{cid}/events?{someone_else}", headers=ORIGIN)
    assert other.status_code == 404
    bad = await client.get(f"/api/v1/conversations/{cid}/events?{identity}",
                           headers={**ORIGIN, "Last-Event-ID": "yesterday"})  # fmt: skip
    assert bad.status_code == 400 and "Last-Event-ID" in bad.json()["details"]
    streams: OpenStreams = app.state.open_streams
    held = [streams.admit(f"person:{tenant.project.id}:ada", str(tenant.project.id))
            for _ in range(streams.limits.per_person)]  # fmt: skip
    refused = await client.get(f"/api/v1/conversations/{cid}/events?{identity}", headers=ORIGIN)
    assert refused.status_code == 429
    assert (
        refused.json()["error"] == "too_many_streams"
        and "one person's limit of 10" in refused.json()["details"]
    )
    for release in held:
        release()
    assert streams.total == 0


async def test_heartbeats_go_out_on_the_shared_tick_and_a_client_that_leaves_frees_its_place(
    app: Litestar, client: AsyncTestClient[Litestar], tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fanout, "POLL_SECONDS", 0.02)
    monkeypatch.setattr(fanout, "HEARTBEAT_SECONDS", 0.05)
    cid, identity = await identified_conversation(client, tenant, "ada")
    streams: OpenStreams = app.state.open_streams
    async with sse(app, f"/api/v1/conversations/{cid}/events?{identity}", ORIGIN) as person:
        assert person.headers["cache-control"] == "no-cache" and "x-request-id" in person.headers
        assert streams.total == 1
        async with asyncio.timeout(5):
            while person.comments < 2:
                await asyncio.sleep(0.01)
        assert person.body.startswith(b"retry: 1500\r\n")
    assert streams.total == 0 and app.state.live_bus.fanout.subscribers == 0
    assert person.ended.is_set()
