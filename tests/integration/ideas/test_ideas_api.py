"""The team's ideas API over HTTP, on both databases: create (201), list and filter, change with the
status event, 400 naming the field, merge counting a person once, voters, feedback as demand, the
changelog, and the portal settings on the project."""

from __future__ import annotations

from uuid import uuid4

from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Project, WebhookDelivery
from app.dependencies import build
from app.ideas.people import Person
from app.ideas.service import Ideas
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.factories import Tenant


async def test_team_api_round_trip(
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    base = f"/api/v1/projects/{tenant.project_id}"
    hook = await client.post(
        "/api/v1/webhooks",
        json={"url": "https://hooks.example.com/x", "events": ["idea.created", "idea.status_changed"]},
        headers=tenant.headers,
    )
    assert hook.status_code == 201, hook.text
    created = await client.post(
        f"{base}/ideas", json={"title": "Dark mode", "body": "Please", "tags": ["UI"]}, headers=tenant.headers
    )
    assert created.status_code == 201, created.text
    dark = created.json()
    assert {k: dark[k] for k in ("title", "status", "votes", "comments", "tags", "merged_into")} == {
        "title": "Dark mode",
        "status": "open",
        "votes": 0,
        "comments": 0,
        "tags": ["ui"],
        "merged_into": None,
    }
    night = (await client.post(f"{base}/ideas", json={"title": "Night theme"}, headers=tenant.headers)).json()

    bad = await client.post(f"{base}/ideas", json={"title": "x" * 121}, headers=tenant.headers)
    assert bad.status_code == 400 and "title" in bad.json()["details"]
    bad = await client.patch(f"{base}/ideas/{dark['id']}", json={"status": "shipped"}, headers=tenant.headers)
    assert bad.status_code == 400 and "status" in bad.json()["details"]

    async with session_maker() as session, session.begin():
        project = await session.get(Project, tenant.project.id)
        ideas = build(Ideas, session, operator_scope(tenant.org_id), project, settings)
        for person, idea_id in (
            ("ann", dark["id"]),
            ("bob", dark["id"]),
            ("bob", night["id"]),
            ("cy", night["id"]),
        ):
            await ideas.vote(await ideas.get(idea_id), Person.of_user(person, email=f"{person}@example.org"))

    merged = await client.post(
        f"{base}/ideas/{night['id']}/merge", json={"into": dark["id"]}, headers=tenant.headers
    )
    assert merged.status_code == 200 and merged.json()["votes"] == 3
    assert (await client.get(f"{base}/ideas/{night['id']}", headers=tenant.headers)).json()[
        "merged_into"
    ] == dark["id"]
    voters = (await client.get(f"{base}/ideas/{dark['id']}/voters", headers=tenant.headers)).json()
    assert sorted(v["name"] for v in voters["voters"]) == ["", "", ""] and voters["pagination"]["total"] == 3
    self_merge = await client.post(
        f"{base}/ideas/{dark['id']}/merge", json={"into": dark["id"]}, headers=tenant.headers
    )
    assert self_merge.status_code == 400 and "into" in self_merge.json()["details"]

    changed = await client.patch(
        f"{base}/ideas/{dark['id']}", json={"status": "planned", "response": "In May"}, headers=tenant.headers
    )
    assert changed.json()["status"] == "planned" and changed.json()["response"] == "In May"
    listed = (await client.get(f"{base}/ideas?status=planned&tag=ui", headers=tenant.headers)).json()
    assert [i["title"] for i in listed["ideas"]] == ["Dark mode"]

    async with session_maker() as session, session.begin():
        item = await FeedbackItems(session, operator_scope(tenant.org_id), tenant.project).create(
            message="I want an export to CSV"
        )
    linked = await client.post(
        f"{base}/feedback/{item.id}/idea", json={"title": "CSV export"}, headers=tenant.headers
    )
    assert linked.status_code == 201 and linked.json()["idea"]["demand"] == 1
    neither = await client.post(f"{base}/feedback/{item.id}/idea", json={}, headers=tenant.headers)
    assert neither.status_code == 400 and "idea_id" in neither.json()["details"]

    entry = await client.post(
        f"{base}/changelog",
        json={
            "title": "May release",
            "body": "Dark mode!",
            "published_at": "2026-01-01T00:00:00Z",
            "idea_ids": [dark["id"]],
        },
        headers=tenant.headers,
    )
    assert entry.status_code == 201 and entry.json()["idea_ids"] == [dark["id"]]
    wrong = await client.post(
        f"{base}/changelog", json={"title": "x", "idea_ids": [str(uuid4())]}, headers=tenant.headers
    )
    assert wrong.status_code == 404 and "idea_ids[0]" in wrong.json()["details"]
    patched = await client.patch(
        f"{base}/changelog/{entry.json()['id']}", json={"title": "June"}, headers=tenant.headers
    )
    assert patched.json()["title"] == "June"
    assert (
        await client.delete(f"{base}/changelog/{entry.json()['id']}", headers=tenant.headers)
    ).status_code == 204
    assert (await client.delete(f"{base}/ideas/{night['id']}", headers=tenant.headers)).status_code == 204

    async with session_maker() as session:
        events = list(await session.scalars(select(WebhookDelivery.event_type)))
    assert events.count("idea.created") == 3 and events.count("idea.status_changed") == 1


async def test_portal_settings_on_the_project(client: AsyncTestClient, tenant: Tenant) -> None:
    url = f"/api/v1/projects/{tenant.project_id}"
    changed = await client.patch(
        url,
        json={"portal": {"enabled": True, "title": "Acme ideas", "accent_color": "#AA3300"}},
        headers=tenant.headers,
    )
    assert changed.status_code == 200, changed.text
    portal = changed.json()["portal"]
    assert portal == {
        "enabled": True,
        "title": "Acme ideas",
        "intro": "",
        "accent_color": "#aa3300",
        "auto_approve": False,
        "voting": "verified",
        "indexable": False,
    }
    again = await client.patch(url, json={"portal": {"voting": "email"}}, headers=tenant.headers)
    assert again.json()["portal"]["title"] == "Acme ideas" and again.json()["portal"]["voting"] == "email"
    bad = await client.patch(url, json={"portal": {"accent_color": "red"}}, headers=tenant.headers)
    assert bad.status_code == 400 and "accent_color" in bad.json()["details"]
