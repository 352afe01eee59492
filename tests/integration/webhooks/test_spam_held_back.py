"""Spam is announced to no webhook until a member marks it not spam; then the event held back is sent."""

from __future__ import annotations

import json

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED
from tests.integration.webhooks.conftest import add_webhook
from tests.integration.webhooks.test_delivery import deliveries
from tests.receivers import Receiver


async def test_the_held_back_events_are_sent_when_spam_is_marked_not_spam(
    client: AsyncTestClient[Litestar], tenant: Tenant, hook: Receiver
) -> None:
    created = await add_webhook(client, tenant, hook.url)
    project = f"/api/v1/projects/{tenant.project_id}"
    feedback = {"project_key": tenant.project_key, "message": "Cheap pills", "elapsed_ms": 50}
    contact = {
        "project_key": tenant.project_key,
        "name": "Bot",
        "email": "bot@example.org",
        "message": "Buy now",
        "website": "https://spam.example",
    }
    assert (
        await client.post("/api/v1/feedback/submit", json=feedback, headers={"Origin": ALLOWED})
    ).status_code == 200
    assert (
        await client.post("/api/v1/contact/submit", json=contact, headers={"Origin": ALLOWED})
    ).status_code == 200
    assert await deliveries(client, tenant, created["id"]) == []

    [item] = (await client.get(f"{project}/feedback?spam=true", headers=tenant.headers)).json()["feedback"]
    [message] = (await client.get(f"{project}/contact-messages?spam=true", headers=tenant.headers)).json()[
        "contact_messages"
    ]
    assert (
        await client.patch(f"{project}/feedback/{item['id']}", json={"spam": False}, headers=tenant.headers)
    ).status_code == 200
    assert (
        await client.patch(
            f"{project}/contact-messages/{message['id']}", json={"spam": False}, headers=tenant.headers
        )
    ).status_code == 200
    requests = await hook.wait_for(2)
    events = sorted(
        (body["type"], body["data"]["message"]) for body in (json.loads(r.body) for r in requests)
    )
    assert events == [("contact_message.created", "Buy now"), ("feedback.created", "Cheap pills")]
