"""The console's Download CSV / Download NDJSON links: they carry the filters the page shows and answer
with the same export as the API, for members only of the project's organization."""

from __future__ import annotations

import csv
import html
import io
import re

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant


def link(page: str, name: str) -> str:
    match = re.search(rf'<a href="([^"]+)"[^>]*>{name}</a>', page)
    assert match, f"no {name} link"
    return html.unescape(match.group(1))


async def signed_in(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")


async def test_feedback_downloads_carry_the_filters(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
        await items.create(message="=1+1 broken", type="Bug", source="Widget")
        await items.create(message="Nice", type="Praise", source="Widget")
    await signed_in(console, tenant, session_maker)
    page = (await console.get(f"/projects/{tenant.project_id}/feedback", params={"type": "Bug"})).text
    csv_url = link(page, "Download CSV")
    assert csv_url == f"/projects/{tenant.project_id}/feedback/export?type=Bug&format=csv"
    response = await console.get(csv_url)
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    assert response.content.startswith("\ufeff".encode())  # Excel reads UTF-8 by its byte order mark
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    assert [(row["message"], row["type"]) for row in rows] == [("'=1+1 broken", "Bug")]
    ndjson = await console.get(link(page, "Download NDJSON"))
    assert [line.count('"type":"Bug"') for line in ndjson.text.splitlines()] == [1]


async def test_ratings_and_contact_downloads(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Ada", email="ada@example.org", message="Hi there"
        )
        await ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project).create(
            name="Bob", email="bob@example.org", message="Hello"
        )
    await signed_in(console, tenant, session_maker)
    page = (await console.get(f"/projects/{tenant.project_id}/contact", params={"search": "ada"})).text
    downloaded = (await console.get(link(page, "Download CSV"))).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(downloaded, newline="")))
    assert [row["email"] for row in rows] == ["ada@example.org"]
    ratings = (await console.get(f"/projects/{tenant.project_id}/ratings", params={"path": "/docs"})).text
    assert (
        link(ratings, "Download NDJSON")
        == f"/projects/{tenant.project_id}/ratings/export?path=/docs&format=ndjson"
    )
    response = await console.get(link(ratings, "Download NDJSON"))
    assert (response.status_code, response.text) == (200, "")
    bad = await console.get(f"/projects/{tenant.project_id}/ratings/export?format=xlsx")
    assert bad.status_code == 400


async def test_another_organizations_project_is_not_found(
    console: Console, tenant: Tenant, other_tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await signed_in(console, tenant, session_maker)
    for kind in ("feedback", "ratings", "contact"):
        response = await console.get(f"/projects/{other_tenant.project_id}/{kind}/export")
        assert response.status_code == 404, kind
    console.client.cookies.clear()
    anonymous = await console.client.get(
        f"/projects/{tenant.project_id}/feedback/export", follow_redirects=False
    )
    assert anonymous.status_code in (302, 303, 401)
