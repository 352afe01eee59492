"""The console's Ideas tab over HTTP, on both databases: the pending queue (Approve / Decline, also as
htmx swaps), a row's status, an idea's status, response, tags and Pin, a refused title beside its field,
merging (votes move, a person counted once), voters and linked feedback, "Link to idea" on a feedback
item, the changelog (admins publish; members may not), the portal settings on the project page, CSRF,
and another organization's ideas not found."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Project, User
from app.dependencies import build
from app.ideas.bodies import IdeaCreateBody
from app.ideas.people import Person
from app.ideas.service import Ideas
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user, errors_in
from tests.factories import Tenant

BODY = "Please **now** <script>alert(1)</script> [x](javascript:alert(1))"


async def arrange(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings, tenant: Tenant
) -> dict[str, Any]:
    """Two pending suggestions, two open ideas with votes (bob voted for both), one feedback item."""
    async with session_maker() as session, session.begin():
        project = await session.get_one(Project, tenant.project.id)
        scope = operator_scope(tenant.org_id)
        ideas = build(Ideas, session, scope, project, settings)
        ann = Person.of_user("ann", name="Ann", email="ann@example.org")
        bob = Person.of_user("bob", name="Bob", email="bob@example.org")
        pending = await ideas.suggest(ann, "Export to <b>CSV</b>", BODY, spam=False, auto_approve=False)
        spam_like = await ideas.suggest(bob, "Cheap watches", "", spam=False, auto_approve=False)
        dark = await ideas.create(IdeaCreateBody(title="Dark mode", tags=["ui"]))
        night = await ideas.create(IdeaCreateBody(title="Night theme"))
        for person, idea in ((ann, dark), (bob, dark), (bob, night)):
            await ideas.vote(idea, person)
        item = await build(FeedbackItems, session, scope, project).create(message="The CSV export is missing")
        return {
            "pending": str(pending.id),
            "spam": str(spam_like.id),
            "dark": str(dark.id),
            "night": str(night.id),
            "item": str(item.id),
        }


async def test_the_team_triages_ideas_in_the_console(
    console: Console,
    client: AsyncTestClient,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    ids = await arrange(session_maker, settings, tenant)
    api = f"/api/v1/projects/{tenant.project_id}"
    base = f"/projects/{tenant.project_id}/ideas"

    async def idea(key: str) -> dict[str, Any]:
        return (await client.get(f"{api}/ideas/{ids[key]}", headers=tenant.headers)).json()

    await console.login(owner.email)
    board = await console.get(base)
    assert board.status_code == 200
    assert "Export to &lt;b&gt;CSV&lt;/b&gt;" in board.text and "<b>CSV" not in board.text
    assert ">Approve</button>" in board.text and ">Decline</button>" in board.text
    assert 'aria-current="page">Ideas</a>' in board.text

    forged = await console.client.post(f"{base}/{ids['pending']}/approve", data={"_csrf_token": "forged"})
    assert forged.status_code == 403 and (await idea("pending"))["status"] == "pending"
    approved = await console.post(f"{base}/{ids['pending']}/approve?sort=new", follow_redirects=False)
    assert approved.status_code == 303 and approved.headers["location"] == f"{base}?sort=new"
    assert (await idea("pending"))["status"] == "open"
    swapped = await console.htmx_post(f"{base}/{ids['spam']}/decline")
    assert swapped.status_code == 200 and 'id="ideas-board"' in swapped.text and "<html" not in swapped.text
    assert "is declined" in swapped.text and (await idea("spam"))["status"] == "declined"

    row = await console.htmx_post(f"{base}/{ids['night']}/status", {"status": "planned"})
    assert row.text.lstrip().startswith(f'<tr id="idea-row-{ids["night"]}"') and "Saved" in row.text
    assert (await idea("night"))["status"] == "planned"
    wrong = await console.post(f"{base}/{ids['night']}/status", {"status": "shipped"})
    assert wrong.status_code == 400 and (await idea("night"))["status"] == "planned"

    detail = await console.get(f"{base}/{ids['dark']}")
    assert "Ann" in detail.text and "bob@example.org" in detail.text and ">Pin</button>" in detail.text
    changes = {"status": "in_progress", "response": "Shipping in May", "tags": "UI, Themes"}
    changes["title"] = "Dark mode"
    saved = await console.post(f"{base}/{ids['dark']}", {**changes, "body": "A dark theme"})
    assert saved.status_code == 200 and "Saved." in saved.text
    dark = await idea("dark")
    assert (dark["status"], dark["response"], dark["tags"], dark["body"]) == (
        "in_progress",
        "Shipping in May",
        ["themes", "ui"],
        "A dark theme",
    )
    too_long = await console.post(f"{base}/{ids['dark']}", {**changes, "title": "x" * 121})
    assert too_long.status_code == 400 and 'id="e-title"' in too_long.text and errors_in(too_long.text)
    assert (await idea("dark"))["title"] == "Dark mode"
    pinned = await console.htmx_post(f"{base}/{ids['dark']}/pin", {"pinned": "true"})
    assert ">Unpin</button>" in pinned.text and (await idea("dark"))["pinned"] is True

    into_itself = await console.post(f"{base}/{ids['night']}/merge", {"into": ids["night"]})
    assert into_itself.status_code == 400 and 'id="e-into"' in into_itself.text
    merged = await console.post(f"{base}/{ids['night']}/merge", {"into": ids["dark"]}, follow_redirects=True)
    assert merged.status_code == 200 and "Merged: the votes and linked feedback moved here." in merged.text
    assert "Night theme" in merged.text  # listed under "Merged into this idea"
    assert (await idea("dark"))["votes"] == 2 and (await idea("night"))["merged_into"] == ids["dark"]
    found = await console.get(f"{base}/{ids['pending']}?merge_q=dark")
    assert "Merge into this" in found.text and f'value="{ids["dark"]}"' in found.text

    feedback = f"/projects/{tenant.project_id}/feedback/{ids['item']}"
    item_page = await console.get(feedback)
    assert ">Link to idea</button>" in item_page.text
    nothing = await console.post(f"{feedback}/idea", {"idea_id": "", "title": " "})
    assert nothing.status_code == 400 and 'id="idea-error"' in nothing.text
    linked = await console.post(f"{feedback}/idea", {"idea_id": ids["pending"]})
    assert linked.status_code == 200 and "Demand for" in linked.text
    assert (await idea("pending"))["demand"] == 1
    detail = await console.get(f"{base}/{ids['pending']}")
    assert "The CSV export is missing" in detail.text
    assert "<strong>now</strong>" in detail.text and "<script>alert" not in detail.text
    assert 'href="javascript:' not in detail.text
    new = await console.post(f"{feedback}/idea", {"title": "CSV export"})
    assert "Linked to “CSV export”" in new.text and (await idea("pending"))["demand"] == 0

    changelog = f"{base}/changelog"
    published = await console.post(
        changelog,
        {"title": "Dark mode is here", "body": "Try it", "idea_ids": [ids["dark"]], "action": "publish"},
        follow_redirects=True,
    )
    assert published.status_code == 200 and "Dark mode is here" in published.text
    entries = (await client.get(f"{api}/changelog", headers=tenant.headers)).json()["entries"]
    assert len(entries) == 1 and entries[0]["idea_ids"] == [ids["dark"]] and entries[0]["published_at"]
    entry_url = f"{changelog}/{entries[0]['id']}"
    blank = await console.post(entry_url, {"title": "", "action": "save", "idea_ids": [ids["pending"]]})
    assert blank.status_code == 400 and 'id="e-title"' in blank.text
    assert f'value="{ids["pending"]}" checked' in blank.text  # the ticks are kept
    unknown = await console.post(changelog, {"title": "Hi", "idea_ids": [str(uuid4())], "action": "save"})
    assert unknown.status_code == 400 and "no idea with this id in this project" in unknown.text
    unpublished = await console.post(entry_url, {"title": "Dark mode", "idea_ids": [], "action": "unpublish"})
    assert "Unpublished" in unpublished.text
    entry = (await client.get(f"{api}/changelog/{entries[0]['id']}", headers=tenant.headers)).json()
    assert (entry["title"], entry["published_at"], entry["idea_ids"]) == ("Dark mode", None, [])

    project_page = f"/projects/{tenant.project_id}"
    portal = {
        "enabled": "true",
        "title": "Acme ideas",
        "intro": "Tell us",
        "accent_color": "#FF6600",
        "voting": "email",
        "indexable": "true",
    }
    saved = await console.htmx_post(f"{project_page}/portal", portal)
    assert saved.status_code == 200 and "Saved." in saved.text and f"/p/{tenant.project_key}" in saved.text
    settings_now = (await client.get(api, headers=tenant.headers)).json()["portal"]
    assert settings_now == {
        "enabled": True,
        "title": "Acme ideas",
        "intro": "Tell us",
        "accent_color": "#ff6600",
        "auto_approve": False,
        "voting": "email",
        "indexable": True,
    }
    bad = await console.post(f"{project_page}/portal", {**portal, "accent_color": "orange", "voting": "all"})
    assert bad.status_code == 400 and 'id="e-accent_color"' in bad.text
    assert (await client.get(api, headers=tenant.headers)).json()["portal"]["accent_color"] == "#ff6600"
    assert "Ideas portal" in (await console.get(project_page)).text

    blank_idea = await console.post(base, {"title": " ", "body": "x", "tags": ""})
    assert blank_idea.status_code == 400 and 'id="e-title"' in blank_idea.text
    added = await console.post(base, {"title": "Offline mode", "tags": "Mobile"}, follow_redirects=True)
    assert added.status_code == 200 and "<h1" in added.text and "Offline mode" in added.text
    listed = (await client.get(f"{api}/ideas?q=offline", headers=tenant.headers)).json()["ideas"]
    assert [(i["title"], i["status"], i["tags"]) for i in listed] == [("Offline mode", "open", ["mobile"])]

    other = f"/projects/{other_tenant.project_id}/ideas"
    assert (await console.get(other)).status_code == 404
    assert (await console.get(f"{other}/changelog")).status_code == 404
    assert (await console.post(f"{other}/{ids['dark']}/approve")).status_code == 404
    assert (await console.post(f"/projects/{other_tenant.project_id}/portal", portal)).status_code == 404


async def test_members_triage_ideas_but_admins_publish_and_configure(
    console: Console,
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    ids = await arrange(session_maker, settings, tenant)
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    base = f"/projects/{tenant.project_id}/ideas"
    assert (await console.post(f"{base}/{ids['pending']}/approve")).status_code in (200, 303)
    changelog = await console.get(f"{base}/changelog")
    assert "Owners and admins write the changelog." in changelog.text and "Publish now" not in changelog.text
    refused = await console.post(f"{base}/changelog", {"title": "Hi", "action": "publish"})
    assert refused.status_code == 403
    project_page = await console.get(f"/projects/{tenant.project_id}")
    assert "Ideas portal" in project_page.text and "Save portal settings" not in project_page.text
    portal = await console.post(f"/projects/{tenant.project_id}/portal", {"enabled": "true"})
    assert portal.status_code == 403
    api = f"/api/v1/projects/{tenant.project_id}"
    assert (await client.get(api, headers=tenant.headers)).json()["portal"]["enabled"] is False


async def test_an_admin_deletes_an_idea_after_confirming_and_a_member_may_not(
    console: Console,
    client: AsyncTestClient,
    owner: User,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    ids = await arrange(session_maker, settings, tenant)
    url = f"/projects/{tenant.project_id}/ideas/{ids['dark']}"
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    assert "Delete idea" not in (await console.get(url)).text
    assert (await console.post(f"{url}/delete")).status_code == 403
    console.client.cookies.clear()
    await console.login(owner.email)
    assert f'href="{url}/delete"' in (await console.get(url)).text
    confirm = await console.get(f"{url}/delete")
    assert confirm.status_code == 200 and "Dark mode" in confirm.text and "2 votes" in confirm.text
    forged = await console.client.post(f"{url}/delete")
    assert forged.status_code == 403
    deleted = await console.post(f"{url}/delete")
    assert deleted.status_code in (200, 303)
    board = await console.get(f"/projects/{tenant.project_id}/ideas?deleted=1")
    assert "Deleted the idea" in board.text and "Dark mode" not in board.text
    api = f"/api/v1/projects/{tenant.project_id}/ideas/{ids['dark']}"
    assert (await client.get(api, headers=tenant.headers)).status_code == 404
