"""The alert routes: list and filter, a check run now (write tokens only), acknowledging and resolving
(with alert.resolved sent), and the rules: read, changed, refused with a 400 naming the field, obeyed."""

from __future__ import annotations

import json
from datetime import timedelta

from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import WebhookDelivery
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from app.webhooks.slack import slack_text
from tests.alert_counts import count_answers, stored_alert
from tests.factories import Tenant


async def test_list_acknowledge_and_resolve(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    alert = stored_alert(tenant.project.id)
    async with unit_of_work(session_maker) as session:
        session.add(alert)
    base = f"/api/v1/projects/{tenant.project_id}/alerts"
    hook = await client.post(
        "/api/v1/webhooks",
        headers=tenant.headers,
        json={"url": "https://hooks.example.com/a", "format": "slack"},
    )
    assert hook.status_code == 201
    listed = (await client.get(base, headers=tenant.read_headers)).json()["alerts"]
    assert [(a["id"], a["kind"], a["status"], a["subject"]) for a in listed] == [
        (str(alert.id), "rating_drop", "open", {"path": "/docs/install"})
    ]
    assert set(listed[0]) == {
        "id", "kind", "status", "subject", "title", "before", "after", "p_value", "examples",
        "opened_at", "updated_at", "resolved_at", "acknowledged_by",
    }  # fmt: skip
    bad = await client.get(base, params={"status": "closed"}, headers=tenant.headers)
    assert bad.status_code == 400 and "status" in str(bad.json()["details"])

    missing = await client.patch(f"{base}/{alert.id}", json={}, headers=tenant.headers)
    assert missing.status_code == 400 and "status" in str(missing.json())
    acked = await client.patch(f"{base}/{alert.id}", json={"status": "acknowledged"}, headers=tenant.headers)
    assert acked.status_code == 200
    assert (acked.json()["status"], acked.json()["acknowledged_by"]) == (
        "acknowledged",
        f"token {tenant.token[:12]}",
    )
    done = await client.patch(f"{base}/{alert.id}", json={"status": "resolved"}, headers=tenant.headers)
    assert done.json()["status"] == "resolved" and done.json()["resolved_at"]
    again = await client.patch(f"{base}/{alert.id}", json={"status": "acknowledged"}, headers=tenant.headers)
    assert again.status_code == 400
    assert [
        a["id"]
        for a in (await client.get(base, params={"status": "resolved"}, headers=tenant.headers)).json()[
            "alerts"
        ]
    ] == [str(alert.id)]
    async with session_maker() as session:
        bodies = list(await session.scalars(select(WebhookDelivery.body)))
    (event,) = [json.loads(body) for body in bodies]
    assert event["type"] == "alert.resolved" and event["data"]["id"] == str(alert.id)
    assert slack_text(event) == "Resolved: Helpful on /docs/install fell from 80 % to 30 %"


async def test_rules_are_kept_checked_and_obeyed(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    rules_url = f"/api/v1/projects/{tenant.project_id}/alert-rules"
    defaults = (await client.get(rules_url, headers=tenant.read_headers)).json()
    assert defaults == {
        "rating_drop": {"enabled": True, "p_value": 0.01, "min_answers": 30},
        "theme_surge": {"enabled": True, "p_value": 0.001, "min_items": 5},
        "negative_spike": {"enabled": True, "p_value": 0.001, "min_items": 5},
    }
    refused = await client.put(rules_url, json={"rating_drop": {"p_value": 2}}, headers=tenant.headers)
    assert refused.status_code == 400 and "p_value" in str(refused.json())
    unknown = await client.put(rules_url, json={"rating_drop": {"pvalue": 0.1}}, headers=tenant.headers)
    assert unknown.status_code == 400
    read_only = await client.put(rules_url, json={}, headers=tenant.read_headers)
    assert read_only.status_code == 403
    changed = await client.put(rules_url, json={"rating_drop": {"enabled": False}}, headers=tenant.headers)
    assert changed.status_code == 200 and changed.json()["rating_drop"]["enabled"] is False
    assert (await client.get(rules_url, headers=tenant.headers)).json() == changed.json()

    now = utc_now()
    async with unit_of_work(session_maker) as session:
        for back in range(2, 30):
            answers = {("helpful", 1): 32, ("helpful", 0): 8}
            await count_answers(session, tenant.project.id, now - timedelta(days=back), answers, path="/a")
        await count_answers(
            session, tenant.project.id, now, {("helpful", 1): 5, ("helpful", 0): 55}, path="/a"
        )
    check = f"/api/v1/projects/{tenant.project_id}/alerts/check"
    assert (await client.post(check, headers=tenant.read_headers)).status_code == 403
    assert (await client.post(check, headers=tenant.headers)).json() == {"alerts": []}  # the rule is off
    await client.put(rules_url, json={}, headers=tenant.headers)
    (opened,) = (await client.post(check, headers=tenant.headers)).json()["alerts"]
    assert opened["title"] == "Helpful on /a fell from 80 % to 8 %"
