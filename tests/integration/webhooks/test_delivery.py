"""Events reach real receivers on 127.0.0.1: signed as Standard Webhooks (checked with the
`standardwebhooks` package), retried, logged attempt by attempt, and only where they are wanted."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from standardwebhooks import Webhook

from app.config import Settings
from tests.factories import Tenant, add_project
from tests.integration.public.conftest import ALLOWED
from tests.integration.webhooks.conftest import QUICK_RETRIES, add_webhook
from tests.receivers import Received, Receiver, Script, receiver

HOOKS = "/api/v1/webhooks"


def verified(secret: str, request: Received) -> dict[str, Any]:
    payload: dict[str, Any] = Webhook(secret).verify(request.body, request.headers)
    return payload


async def deliveries(
    client: AsyncTestClient[Litestar], tenant: Tenant, webhook_id: str
) -> list[dict[str, Any]]:
    response = await client.get(f"{HOOKS}/{webhook_id}/deliveries", headers=tenant.headers)
    assert response.status_code == 200
    found: list[dict[str, Any]] = response.json()["deliveries"]
    return found


async def settled(
    client: AsyncTestClient[Litestar], tenant: Tenant, webhook_id: str, count: int = 1
) -> list[dict[str, Any]]:
    """The deliveries once `count` of them are no longer pending."""
    for _ in range(200):
        found = await deliveries(client, tenant, webhook_id)
        if len([d for d in found if d["status"] != "pending"]) >= count:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"deliveries still pending: {found}")


async def test_feedback_from_every_source_is_delivered_signed(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    project = f"/api/v1/projects/{tenant.project_id}"
    public = await client.post(
        "/api/v1/feedback/submit",
        json={"project_key": tenant.project_key, "message": "From the widget", "type": "Bug"},
        headers={"Origin": ALLOWED},
    )
    assert public.status_code == 200
    api = await client.post(f"{project}/feedback", json={"message": "From the API"}, headers=tenant.headers)
    contact = await client.post(
        "/api/v1/contact/submit",
        json={
            "project_key": tenant.project_key,
            "name": "Ada",
            "email": "ada@example.org",
            "message": "Call me",
        },
        headers={"Origin": ALLOWED},
    )
    assert contact.status_code == 200
    patched = await client.patch(
        f"{project}/feedback/{api.json()['id']}",
        json={"status": "Resolved", "type": "Bug"},
        headers=tenant.headers,
    )
    assert patched.status_code == 200

    requests = await hook.wait_for(4)
    events = {payload["type"] + ":" + str(payload["data"].get("message")): payload for payload in (
        verified(created["secret"], request) for request in requests
    )}  # fmt: skip
    assert set(events) == {
        "feedback.created:From the widget",
        "feedback.created:From the API",
        "contact_message.created:Call me",
        "feedback.updated:From the API",
    }
    assert events["feedback.created:From the widget"]["data"]["source"] == "Widget"
    assert events["feedback.created:From the API"]["data"] == api.json()
    assert events["feedback.updated:From the API"]["data"] == patched.json()
    assert events["feedback.updated:From the API"]["changes"] == [
        {"field": "type", "from": "Other", "to": "Bug"},
        {"field": "status", "from": "New", "to": "Resolved"},
    ]
    assert events["contact_message.created:Call me"]["data"]["email"] == "ada@example.org"
    assert len({request.headers["webhook-id"] for request in requests}) == 4
    assert all(request.headers["content-type"] == "application/json" for request in requests)
    logged = await settled(client, tenant, created["id"], 4)
    assert {(d["status"], d["attempts"], d["last_status_code"]) for d in logged} == {("succeeded", 1, 204)}


async def test_a_receiver_failing_twice_sees_three_attempts_with_one_webhook_id(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    with receiver(Script(statuses=[500, 503, 200], answer=b"thanks")) as flaky:
        created = await add_webhook(client, tenant, flaky.url)
        await client.post(
            f"/api/v1/projects/{tenant.project_id}/feedback",
            json={"message": "Retry me"},
            headers=tenant.headers,
        )
        requests = await flaky.wait_for(3)
        assert len({request.headers["webhook-id"] for request in requests}) == 1
        assert len({request.body for request in requests}) == 1
        for request in requests:
            verified(created["secret"], request)
        (delivery,) = await settled(client, tenant, created["id"])
        assert delivery | {"created_at": None} == {
            "id": requests[0].headers["webhook-id"],
            "event_type": "feedback.created",
            "status": "succeeded",
            "attempts": 3,
            "last_status_code": 200,
            "last_error": None,
            "created_at": None,
            "next_attempt_at": None,
        }
        attempts = await client.get(
            f"{HOOKS}/{created['id']}/deliveries/{delivery['id']}/attempts", headers=tenant.headers
        )
        assert [(a["status_code"], a["error"], a["response_body"]) for a in attempts.json()["attempts"]] == [
            (500, "the receiver answered 500", "thanks"),
            (503, "the receiver answered 503", "thanks"),
            (200, None, "thanks"),
        ]
        await asyncio.sleep(0.5)
        assert len(flaky.requests) == 3


async def test_after_the_last_retry_a_delivery_fails_and_can_be_retried(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    with receiver(Script(statuses=[500] * (len(QUICK_RETRIES) + 1) + [204])) as broken:
        created = await add_webhook(client, tenant, broken.url)
        test = await client.post(f"{HOOKS}/{created['id']}/test", headers=tenant.headers)
        assert test.status_code == 202 and test.json()["event_type"] == "webhook.test"
        (delivery,) = await settled(client, tenant, created["id"])
        assert (delivery["status"], delivery["attempts"], delivery["last_status_code"]) == (
            "failed",
            len(QUICK_RETRIES) + 1,
            500,
        )
        retry = await client.post(
            f"{HOOKS}/{created['id']}/deliveries/{delivery['id']}/retry", headers=tenant.headers
        )
        assert retry.status_code == 202
        await broken.wait_for(len(QUICK_RETRIES) + 2)
        (delivery,) = await settled(client, tenant, created["id"])
        assert (delivery["status"], delivery["attempts"]) == ("succeeded", len(QUICK_RETRIES) + 2)
        assert verified(created["secret"], broken.requests[-1])["type"] == "webhook.test"


async def test_redirects_are_not_followed_and_answers_are_cut_at_one_kib(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    script = Script(statuses=[302], answer=b"x" * 100_000, headers={"Location": hook.url})
    with receiver(script) as moved:
        created = await add_webhook(client, tenant, moved.url, events=["webhook.test"])
        await client.post(f"{HOOKS}/{created['id']}/test", headers=tenant.headers)
        await moved.wait_for(1)
        (delivery,) = await deliveries(client, tenant, created["id"])
        for _ in range(100):
            attempts = (
                await client.get(
                    f"{HOOKS}/{created['id']}/deliveries/{delivery['id']}/attempts", headers=tenant.headers
                )
            ).json()["attempts"]
            if attempts:
                break
            await asyncio.sleep(0.05)
        assert attempts[0]["status_code"] == 302
        assert "redirect" in attempts[0]["error"]
        assert attempts[0]["response_body"] == "x" * 1024
    assert hook.requests == []


async def test_only_wanted_events_reach_an_endpoint_and_ratings_reach_none(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    other = await add_project(session_maker, tenant, name="Other", origins=(ALLOWED,))
    with receiver() as contact_only, receiver() as other_project, receiver() as disabled, receiver() as slack:
        await add_webhook(client, tenant, contact_only.url, events=["contact_message.created"])
        await add_webhook(client, tenant, other_project.url, project_ids=[str(other.id)])
        off = await add_webhook(client, tenant, disabled.url)
        await client.patch(f"{HOOKS}/{off['id']}", json={"enabled": False}, headers=tenant.headers)
        await add_webhook(client, tenant, slack.url, format="slack")

        origin = {"Origin": ALLOWED}
        await client.post(
            "/api/v1/rating/submit", json={"project_key": tenant.project_key, "value": True}, headers=origin
        )
        await client.post(
            "/api/v1/feedback/submit",
            json={"project_key": tenant.project_key, "message": "<!channel> & <http://x|y>"},
            headers=origin,
        )
        await client.post(
            "/api/v1/contact/submit",
            json={
                "project_key": str(other.key),
                "name": "Bo",
                "email": "bo@example.org",
                "message": "Hello there",
            },
            headers=origin,
        )
        (to_slack, _) = await slack.wait_for(2)
        (contact,) = await contact_only.wait_for(1)
        (elsewhere,) = await other_project.wait_for(1)
        await asyncio.sleep(0.3)
    assert json.loads(contact.body)["type"] == "contact_message.created"
    assert json.loads(elsewhere.body)["type"] == "contact_message.created"
    assert (len(contact_only.requests), len(other_project.requests), disabled.requests) == (1, 1, [])
    texts = sorted(json.loads(request.body)["text"] for request in slack.requests)
    assert texts[1].startswith("New feedback") and "&lt;!channel&gt; &amp; &lt;http://x|y&gt;" in texts[1]
    assert "<" not in texts[1]
    assert texts[0].startswith("New contact message from Bo")
    assert set(json.loads(to_slack.body)) == {"text"} and "webhook-signature" not in to_slack.headers


async def test_in_production_a_private_address_is_refused_at_delivery_too(
    settings: Settings, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession], hook: Receiver
) -> None:
    """DNS can change after an endpoint was saved: the address is checked again when connecting."""
    from dataclasses import replace

    from app.main import create_app

    allowed = replace(settings, env="production", webhook_allow_private=True)
    https = hook.url.replace("http://", "https://")
    async with AsyncTestClient(app=create_app(allowed)) as client:
        by_address = await add_webhook(client, tenant, https)
        by_name = await add_webhook(client, tenant, https.replace("127.0.0.1", "localhost"))
    production = replace(settings, env="production", webhook_retry_schedule=())
    async with AsyncTestClient(app=create_app(production)) as client:
        for created in (by_address, by_name):
            await client.post(f"{HOOKS}/{created['id']}/test", headers=tenant.headers)
            (delivery,) = await settled(client, tenant, created["id"])
            assert delivery["status"] == "failed"
            assert "loopback, private, link-local or multicast" in delivery["last_error"], delivery
            assert delivery["last_status_code"] is None
    assert hook.requests == []


async def test_widget_submissions_see_endpoint_changes_at_once(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    """The public endpoints know the subscriptions from their project cache; a change drops it."""

    async def submit(message: str) -> None:
        response = await client.post(
            "/api/v1/feedback/submit",
            json={"project_key": tenant.project_key, "message": message},
            headers={"Origin": ALLOWED},
        )
        assert response.status_code == 200

    await submit("Before any endpoint")  # the project is cached without endpoints
    created = await add_webhook(client, tenant, hook.url)
    await submit("After the endpoint was added")
    (request,) = await hook.wait_for(1)
    assert json.loads(request.body)["data"]["message"] == "After the endpoint was added"
    await client.patch(f"{HOOKS}/{created['id']}", json={"enabled": False}, headers=tenant.headers)
    await submit("After it was disabled")
    await asyncio.sleep(0.3)
    assert len(hook.requests) == 1
    assert len(await deliveries(client, tenant, created["id"])) == 1


async def test_an_endpoint_whose_url_cannot_be_sent_fails_alone(
    client: AsyncTestClient[Litestar],
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    hook: Receiver,
) -> None:
    """A URL saved before today's rules refused it (a user name Basic authentication cannot carry) fails
    its own deliveries; the others of the same batch go out."""
    from uuid import UUID

    from sqlalchemy import update

    from app.db.models import WebhookEndpoint
    from app.db.transactions import unit_of_work

    broken = await add_webhook(client, tenant, hook.url)
    async with unit_of_work(session_maker) as session:
        await session.execute(
            update(WebhookEndpoint)
            .where(WebhookEndpoint.id == UUID(broken["id"]))
            .values(url="http://\U000c76f9@127.0.0.1/hook")
        )
    with receiver() as working:
        fine = await add_webhook(client, tenant, working.url)
        await client.post(
            "/api/v1/feedback/submit",
            json={"project_key": tenant.project_key, "message": "Both endpoints want this"},
            headers={"Origin": ALLOWED},
        )
        (request,) = await working.wait_for(1)
    assert json.loads(request.body)["type"] == "feedback.created"
    assert (await settled(client, tenant, fine["id"]))[0]["status"] == "succeeded"
    (failed,) = await settled(client, tenant, broken["id"])
    assert "cannot be sent a request" in failed["last_error"], failed
