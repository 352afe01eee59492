"""The /demo page: served outside production with a strict CSP and the demo project's widgets. Reading it
never writes, its project allows only the configured base URL's origin, and each visitor sees only what
that visitor sent."""

from __future__ import annotations

import re
from dataclasses import replace

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Project
from app.db.transactions import unit_of_work
from app.demo.demo_project import DEMO_PROJECT_KEY, find_demo_project
from app.main import create_app
from app.services.contact_messages import ContactMessages
from tenants.scope import operator_scope


async def set_up(client: AsyncTestClient[Litestar]) -> None:
    response = await client.post("/demo/setup", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/demo"


async def test_demo_page_embeds_the_four_widgets_under_a_strict_csp(
    client: AsyncTestClient[Litestar],
) -> None:
    await set_up(client)
    response = await client.get("/demo")
    assert response.status_code == 200
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    for name in ("helpful", "star", "contact", "feedback"):
        assert f"/static/widgets/v1/{name}.js" in response.text
    assert f'data-project-key="{DEMO_PROJECT_KEY}"' in response.text
    again = await client.get("/demo?lang=sv")
    assert again.status_code == 200 and 'data-language="sv"' in again.text
    assert (await client.get("/demo?lang=<script>")).text.count("data-language") == 0


async def test_reading_the_demo_page_writes_nothing(
    client: AsyncTestClient[Litestar], session_maker: async_sessionmaker[AsyncSession]
) -> None:
    page = await client.get("/demo", headers={"Host": "evil.test:1234"})
    assert page.status_code == 200
    assert (
        ">Set up the demo project</button>" in page.text
        and f'data-project-key="{DEMO_PROJECT_KEY}"' not in page.text
    )
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(func.count()).select_from(Project)) == 0


async def test_the_demo_project_allows_only_the_base_url_origin(
    client: AsyncTestClient[Litestar], settings: Settings, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await client.post("/demo/setup", headers={"Host": "evil.test:1234"}, follow_redirects=False)
    await client.get("/demo", headers={"Host": "evil.test:1234"})
    await set_up(client)
    async with unit_of_work(session_maker) as session:
        project = await find_demo_project(session)
        assert project is not None and project.allowed_origins == [settings.base_url]


async def test_the_demo_lists_only_what_this_visitor_sent(
    client: AsyncTestClient[Litestar], session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await set_up(client)
    page = (await client.get("/demo")).text
    marker = re.search(r'data-version="(demo-[0-9a-f]{32})"', page)
    assert marker is not None
    async with unit_of_work(session_maker) as session:
        project = await find_demo_project(session)
        assert project is not None
        contact = ContactMessages(session, operator_scope(project.org_id), project)
        await contact.create(name="Stranger", email="stranger@else.example", message="Hi", version="demo-1")
        await contact.create(name="Me Myself", email="me@here.example", message="Hi", version=marker[1])
    listed = (await client.get("/demo")).text
    assert "me@here.example" in listed
    assert "Stranger" not in listed and "stranger@else.example" not in listed


async def test_demo_page_is_not_served_in_production(settings: Settings) -> None:
    app = create_app(replace(settings, env="production", secret_key="p" * 40))
    async with AsyncTestClient(app=app) as production:
        assert (await production.get("/demo")).status_code == 404
        assert (await production.post("/demo/setup")).status_code == 404
