"""The organization's members (GET /members) and a feedback item's assignee: set by PATCH and the
console's Assignee select, only to a member; assigning a New item makes it Assigned. The console also
creates feedback by hand (source Manual)."""

from __future__ import annotations

import csv
import io
import json
import re

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from tests.console_helpers import Console, add_user
from tests.factories import Tenant


def feedback_url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/feedback{suffix}"


async def test_members_and_assignment(
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    ann = await add_user(session_maker, tenant.org_id, "ann@org-a.example", "admin")
    bob = await add_user(session_maker, tenant.org_id, "bob@org-a.example", "member")
    stranger = await add_user(session_maker, other_tenant.org_id, "eve@org-b.example", "owner")
    members = (await client.get("/api/v1/members", headers=tenant.read_headers)).json()["members"]
    assert [(m["user_id"], m["email"], m["role"]) for m in members] == [
        (str(ann.id), "ann@org-a.example", "admin"),
        (str(bob.id), "bob@org-a.example", "member"),
    ]
    assert all(m["joined_at"].endswith("Z") for m in members)

    item = (
        await client.post(feedback_url(tenant), json={"message": "Broken"}, headers=tenant.headers)
    ).json()
    assert "assignee" not in item
    assigned = await client.patch(
        feedback_url(tenant, f"/{item['id']}"), json={"assignee": str(bob.id)}, headers=tenant.headers
    )
    assert assigned.status_code == 200, assigned.text
    assert (assigned.json()["assignee"], assigned.json()["status"]) == (
        {"id": str(bob.id), "email": "bob@org-a.example"},
        "Assigned",
    )
    listed = (await client.get(feedback_url(tenant, "?status=Assigned"), headers=tenant.headers)).json()
    assert [f["assignee"]["email"] for f in listed["feedback"]] == ["bob@org-a.example"]
    history = (
        await client.get(feedback_url(tenant, f"/{item['id']}/history"), headers=tenant.headers)
    ).json()
    assert [(h["field"], h["from"], h["to"]) for h in history["history"]] == [
        ("assignee", None, str(bob.id)),
        ("status", "New", "Assigned"),
    ]
    for wrong in (str(stranger.id), "0190b2b4-0000-7000-8000-000000000000", "not-a-uuid", 5):
        response = await client.patch(
            feedback_url(tenant, f"/{item['id']}"), json={"assignee": wrong}, headers=tenant.headers
        )
        assert response.status_code == 400, wrong
        assert "assignee" in response.json()["details"]
    cleared = await client.patch(
        feedback_url(tenant, f"/{item['id']}"), json={"assignee": None}, headers=tenant.headers
    )
    assert "assignee" not in cleared.json() and cleared.json()["status"] == "Assigned"
    active = (
        await client.post(
            feedback_url(tenant), json={"message": "Slow", "status": "Active"}, headers=tenant.headers
        )
    ).json()
    kept = await client.patch(
        feedback_url(tenant, f"/{active['id']}"), json={"assignee": str(ann.id)}, headers=tenant.headers
    )
    assert kept.json()["status"] == "Active"

    exported = (await client.get(feedback_url(tenant, "/export?format=ndjson"), headers=tenant.headers)).text
    listed = (await client.get(feedback_url(tenant), headers=tenant.headers)).json()["feedback"]
    assert [json.loads(line) for line in exported.splitlines()] == listed
    rows = list(
        csv.DictReader(
            io.StringIO(
                (await client.get(feedback_url(tenant, "/export"), headers=tenant.headers)).content.decode(
                    "utf-8-sig"
                ),
                newline="",
            )
        )
    )
    assert [(r["assignee_id"], r["assignee_email"]) for r in rows] == [
        (str(ann.id), "ann@org-a.example"),
        ("", ""),
    ]


async def test_console_assignee_select_and_new_feedback(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "lead@org-a.example", "member")
    helper = await add_user(session_maker, tenant.org_id, "helper@org-a.example", "member")
    await console.login("lead@org-a.example")
    inbox = (await console.get(f"/projects/{tenant.project_id}/feedback")).text
    assert f'href="/projects/{tenant.project_id}/feedback/new">New feedback</a>' in inbox
    form = await console.get(f"/projects/{tenant.project_id}/feedback/new")
    assert '<label for="f-message">Message</label>' in form.text and ">Create feedback</button>" in form.text
    empty = await console.post(f"/projects/{tenant.project_id}/feedback/new", {"message": " ", "type": "Bug"})
    assert empty.status_code == 400
    created = await console.post(
        f"/projects/{tenant.project_id}/feedback/new",
        {"message": "Called in: export is slow", "type": "Bug"},
        follow_redirects=False,
    )
    assert created.status_code == 303
    detail_url = created.headers["location"]
    detail = (await console.get(detail_url)).text
    assert "Called in: export is slow" in detail and "Manual" in detail
    options = re.findall(
        r'<option value="([^"]*)"[^>]*>([^<]+)</option>',
        detail.split('id="f-assignee"', 1)[1].split("</select>", 1)[0],
    )
    assert options == [("", "Nobody"), *[(str(u), e) for u, e in options[1:]]]
    assert {e for _, e in options[1:]} == {"lead@org-a.example", "helper@org-a.example"}
    saved = await console.post(
        detail_url, {"status": "New", "type": "Bug", "resolution_note": "", "assignee": str(helper.id)}
    )
    assert saved.status_code == 200
    assert '<dd id="detail-assignee">helper@org-a.example</dd>' in saved.text
    assert '<dd id="detail-status">Assigned</dd>' in saved.text


async def test_a_removed_member_s_items_go_back_to_nobody(
    client: AsyncTestClient,
    console: Console,
    owner: User,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    bob = await add_user(session_maker, tenant.org_id, "bob@org-a.example", "member")
    ids = []
    for message in ("Broken", "Slow"):
        item = (
            await client.post(feedback_url(tenant), json={"message": message}, headers=tenant.headers)
        ).json()
        await client.patch(
            feedback_url(tenant, f"/{item['id']}"), json={"assignee": str(bob.id)}, headers=tenant.headers
        )
        ids.append(item["id"])
    await console.login(owner.email)
    page = (await console.get("/members")).text
    membership = re.search(r'for="role-([0-9a-f-]+)">Role of bob@org-a\.example', page)
    assert membership is not None
    assert (await console.htmx_post(f"/members/{membership.group(1)}/remove")).status_code == 200
    for item_id in ids:
        item = (await client.get(feedback_url(tenant, f"/{item_id}"), headers=tenant.headers)).json()
        assert "assignee" not in item
        history = (
            await client.get(feedback_url(tenant, f"/{item_id}/history"), headers=tenant.headers)
        ).json()
        last = history["history"][-1]
        assert (last["field"], last["from"], last["to"]) == ("assignee", str(bob.id), None)
    shown = (await console.get(f"/projects/{tenant.project_id}/feedback/{ids[0]}")).text
    assert re.search(r"changed <strong>assignee</strong>\s+from <q>—</q> to <q>bob@org-a\.example</q>", shown)
    assert re.search(r"changed <strong>assignee</strong>\s+from <q>bob@org-a\.example</q> to <q>—</q>", shown)
