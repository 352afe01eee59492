"""Console projects, origins and install snippets, through the same Projects service as the API."""

from __future__ import annotations

import re

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from app.db.transactions import unit_of_work
from app.ingest import add_ratings, helpful_input
from app.schemas.rating_requests import HelpfulRatingBody
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant


async def signed_in(console: Console, owner: User) -> Console:
    await console.login(owner.email)
    await console.get("/projects")
    return console


async def test_project_list_shows_feedback_rating_and_contact_counts(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        await FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project).create(
            message="Broken link"
        )
        await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Ann", email="ann@x.example", message="Hello"
        )
        await add_ratings(
            session,
            [
                (tenant.project.id, helpful_input(HelpfulRatingBody(value=v, path="/a")))
                for v in (True, False, True)
            ],
        )
        await session.commit()
    await signed_in(console, owner)
    page = (await console.get("/projects")).text
    row = re.search(r"Org A docs</a>.*?</tr>", page, re.S)
    assert row is not None
    assert re.findall(r'class="num">(?:<a [^>]*>)?(\d+)<', row.group(0)) == ["1", "3", "1"]


async def test_create_edit_and_delete_a_project(console: Console, owner: User, tenant: Tenant) -> None:
    await signed_in(console, owner)
    new_page = (await console.get("/projects/new")).text
    assert (
        ">Name</label>" in new_page
        and ">Description</label>" in new_page
        and ">Create project</button>" in new_page
    )
    empty = await console.post("/projects", {"name": "  ", "description": ""})
    assert empty.status_code == 400
    assert errors_in(empty.text) == ["Must be 1 to 200 characters"]
    created = await console.post(
        "/projects", {"name": "Help center", "description": "Support"}, follow_redirects=False
    )
    assert created.status_code == 303
    url = created.headers["location"]
    page = (await console.get(url)).text
    assert "Help center" in page and 'id="project-key"' in page and "Copy key" in page

    renamed = await console.htmx_post(url, {"name": "Help centre", "description": "Support site"})
    assert renamed.status_code == 200
    assert renamed.text.lstrip().startswith('<section class="card" id="project-details"')
    assert "Saved." in renamed.text
    too_long = await console.htmx_post(url, {"name": "x" * 201, "description": ""})
    assert too_long.status_code == 400 and errors_in(too_long.text) == ["Must be 1 to 200 characters"]
    assert "Help centre" in (await console.get(url)).text

    confirm = await console.get(url + "/delete")
    assert "cannot be undone" in confirm.text
    deleted = await console.post(url + "/delete", follow_redirects=False)
    assert deleted.headers["location"] == "/projects"
    assert (await console.get(url)).status_code == 404


async def test_origins_are_validated_normalized_and_removed_in_place(
    console: Console, owner: User, tenant: Tenant, client: AsyncTestClient
) -> None:
    await signed_in(console, owner)
    url = f"/projects/{tenant.project_id}/origins"
    page = (await console.get(f"/projects/{tenant.project_id}")).text
    assert ">Allowed origin</label>" in page and ">Add origin</button>" in page

    no_scheme = await console.htmx_post(url, {"origin": "docs.example.com"})
    assert no_scheme.status_code == 400
    assert errors_in(no_scheme.text) == [
        "&#39;docs.example.com&#39; needs a scheme: write https://docs.example.com"
    ]
    assert 'value="docs.example.com"' in no_scheme.text
    with_path = await console.htmx_post(url, {"origin": "https://docs.example.com/guide"})
    assert "must not have a path" in errors_in(with_path.text)[0]

    added = await console.htmx_post(url, {"origin": "HTTPS://Docs.Example.COM:443/"})
    assert added.status_code == 200
    assert "<code>https://docs.example.com</code>" in added.text
    again = await console.htmx_post(url, {"origin": "https://docs.example.com"})
    assert errors_in(again.text) == ["Https://docs.example.com is already allowed"]

    api = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
    assert api.json()["allowed_origins"] == ["https://site.example", "https://docs.example.com"]

    removed = await console.htmx_post(url + "/remove", {"origin": "https://site.example"})
    assert "<code>https://site.example</code>" not in removed.text
    api = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
    assert api.json()["allowed_origins"] == ["https://docs.example.com"]


async def test_install_page_has_every_snippet_with_the_key(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await signed_in(console, owner)
    page = (await console.get(f"/projects/{tenant.project_id}/install")).text
    for widget in ("helpful", "star", "nps", "feedback", "contact"):
        snippet = re.search(rf'<code id="snippet-{widget}">([^<]+)</code>', page)
        assert snippet is not None, widget
        assert f"http://127.0.0.1:8000/static/widgets/v1/{widget}.js" in snippet.group(1)
        assert f"data-project-key=&#34;{tenant.project_key}&#34;" in snippet.group(1)


async def test_install_page_points_to_the_platform_recipes_and_the_package(
    console: Console, owner: User, tenant: Tenant
) -> None:
    await signed_in(console, owner)
    page = (await console.get(f"/projects/{tenant.project_id}/install")).text
    for platform in ("Docusaurus", "MkDocs Material", "Sphinx with Furo", "VitePress"):
        assert platform in page
    assert f'&lt;HelpfulWidget projectKey="{tenant.project_key}" apiUrl="http://127.0.0.1:8000" /&gt;' in page
    # each guide is a link to the repository's own text, rendered in the console
    links = dict(re.findall(r'<a href="(/guides/[^"]+)">([^<]+)</a>', page))
    assert set(links) == {"/guides/platforms", "/guides/npm-package"}
    platforms = await console.get("/guides/platforms")
    assert platforms.status_code == 200
    assert "<h1>Widgets on documentation platforms and in apps</h1>" in platforms.text
    assert "<h2>Docusaurus</h2>" in platforms.text and "<pre><code" in platforms.text
    package = await console.get("/guides/npm-package")
    assert "<h1>@hearken/widgets</h1>" in package.text and "npm install" in package.text
    assert (await console.get("/guides/unknown")).status_code == 404


async def test_visitor_text_in_names_is_escaped(console: Console, owner: User) -> None:
    await signed_in(console, owner)
    created = await console.post("/projects", {"name": "<img src=x onerror=alert(1)>"})
    assert "<img src=x" not in created.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in created.text


async def test_nul_characters_in_a_form_are_refused(console: Console, owner: User) -> None:
    await signed_in(console, owner)
    refused = await console.post("/projects", {"name": "Help\x00centre", "description": ""})
    assert refused.status_code == 400
    assert "NUL" in refused.text
    assert "Help" not in (await console.get("/projects")).text


async def test_the_identity_secret_is_shown_once_and_only_verified_users_can_be_required(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await signed_in(console, owner)
    overview = (await console.get(f"/projects/{tenant.project_id}")).text
    assert ">Create identity secret</button>" in overview and "Only accept verified users" in overview

    created = await console.htmx_post(f"/projects/{tenant.project_id}/identity-secret")
    assert created.status_code == 200
    secret = re.search(r'<code id="identity-secret">(ids_[A-Za-z0-9_-]{43})</code>', created.text)
    assert secret is not None and "Copy secret" in created.text
    again = (await console.get(f"/projects/{tenant.project_id}")).text
    assert secret.group(1) not in again and ">Rotate identity secret</button>" in again

    ticked = await console.htmx_post(
        f"/projects/{tenant.project_id}/verified-users", {"require_verified_users": "true"}
    )
    assert ticked.status_code == 200 and 'value="true" checked' in ticked.text
    async with unit_of_work(session_maker) as session:
        project = await session.get(type(tenant.project), tenant.project.id)
        assert project is not None and project.require_verified_users is True
    unticked = await console.htmx_post(f"/projects/{tenant.project_id}/verified-users", {})
    assert 'value="true" checked' not in unticked.text


async def test_the_spam_view_lists_spam_and_not_spam_moves_it_to_the_inbox(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.project.org_id, "tests")
        item = await FeedbackItems(session, scope, tenant.project).create(message="Cheap pills", spam=True)
        record = await ContactMessages(session, scope, tenant.project).create(
            name="Bot", email="bot@x.example", message="Buy now", spam=True
        )
        await session.commit()
    await signed_in(console, owner)
    assert ">Cheap pills<" not in (await console.get(f"/projects/{tenant.project_id}/feedback")).text
    spam = (await console.get(f"/projects/{tenant.project_id}/spam")).text
    assert ">Spam</a>" in spam and "Cheap pills" in spam and "Buy now" in spam
    assert spam.count(">Not spam</button>") == 2
    moved = await console.post(
        f"/projects/{tenant.project_id}/spam/feedback/{item.id}", follow_redirects=True
    )
    assert moved.status_code == 200 and "Cheap pills" not in moved.text and "Buy now" in moved.text
    await console.post(f"/projects/{tenant.project_id}/spam/contact/{record.id}")
    assert "Cheap pills" in (await console.get(f"/projects/{tenant.project_id}/feedback")).text
    assert "Buy now" in (await console.get(f"/projects/{tenant.project_id}/contact")).text
