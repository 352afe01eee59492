"""Exports of feedback, ratings and contact messages: parsed back with `csv` and `json` and compared
with what the list endpoints show for the same filters; spreadsheet formulas defused; unicode, quotes
and line breaks kept; memory bounded while a large export streams."""

from __future__ import annotations

import csv
import io
import json
import re
import tracemalloc
from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage
from app.db.transactions import unit_of_work
from app.exports import CONTACT_MESSAGES
from app.exports.response import export_chunks
from app.services.contact_messages import ContactMessages
from tenants.scope import operator_scope
from tests.factories import Tenant

TRICKY = [
    '=HYPERLINK("http://evil.example","click")',
    "+1 555 0100",
    "-2+3",
    "@SUM(A1:A9)",
    "\tindented",
    "\rcarriage",
    'She said "hi", then left',
    "line one\nline two\r\nline three",
    "Grüße, ñandú, 日本語, emoji 🎉",
    "plain, with a comma",
    "x;=1+1;y",
    "tab\t+SUM(A1)",
    'quoted; "=cmd"',
]
FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t\r\n])(?=[\s\"']*[=+\-@])")


def project_url(tenant: Tenant, suffix: str) -> str:
    return f"/api/v1/projects/{tenant.project_id}{suffix}"


async def get_json(client: AsyncTestClient, tenant: Tenant, suffix: str) -> Any:
    response = await client.get(project_url(tenant, suffix), headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    return response.json()


async def export(client: AsyncTestClient, tenant: Tenant, suffix: str) -> tuple[Any, Any]:
    """The answer and its text; a CSV export must begin with the UTF-8 byte order mark."""
    response = await client.get(project_url(tenant, suffix), headers=tenant.read_headers)
    assert response.status_code == 200, response.text
    if "ndjson" in suffix:
        return response, response.content.decode("utf-8")
    assert response.content.startswith(b"\xef\xbb\xbf"), response.content[:20]
    return response, response.content.decode("utf-8").removeprefix("\ufeff")


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def ndjson(text: str) -> list[dict[str, Any]]:
    assert text.endswith("\n") or text == ""
    return [json.loads(line) for line in text.splitlines()]


def as_cell(value: Any) -> str:
    """What a list field becomes in a CSV cell: formulas defused (also after a separator a spreadsheet
    may split on), objects as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = (
        json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        if isinstance(value, dict)
        else str(value)
    )
    text = FORMULA_AFTER_SEPARATOR.sub(r"\1'", text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


async def test_feedback_export_matches_the_list_with_its_filters(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    for n, message in enumerate(TRICKY):
        body = {"message": message, "type": "Bug" if n % 2 else "Praise", "path": f"/p{n % 3}"}
        if n == 4:
            body["metadata"] = {"plan": "=cmd", "n": 3}
            body["submitted_by"] = "user-4"
        response = await client.post(project_url(tenant, "/feedback"), json=body, headers=tenant.headers)
        assert response.status_code == 201
    for query in ("", "?type=Bug", "?path=/p1&sort=created_at", "?search=LINE"):
        listed = (await get_json(client, tenant, f"/feedback{query or '?'}&limit=100"))["feedback"]
        sep = "&" if query else "?"
        _, lines = await export(client, tenant, f"/feedback/export{query}{sep}format=ndjson")
        assert ndjson(lines) == listed, query
        response, text = await export(client, tenant, f"/feedback/export{query}")
        assert response.headers["content-type"].startswith("text/csv")
        rows = csv_rows(text)
        assert [row["id"] for row in rows] == [item["id"] for item in listed]
        for row, item in zip(rows, listed, strict=True):
            assert {k: v for k, v in row.items() if k in item} == {k: as_cell(v) for k, v in item.items()}
            assert all(row[k] == "" for k in row if k not in item)
    everything = csv_rows((await export(client, tenant, "/feedback/export"))[1])
    assert sorted(row["message"] for row in everything) == sorted(as_cell(m) for m in TRICKY)
    assert {row["message"] for row in everything} >= {
        '\'=HYPERLINK("http://evil.example","click")',
        "'-2+3",
        "'\tindented",
        "line one\nline two\r\nline three",
        "Grüße, ñandú, 日本語, emoji 🎉",
        'She said "hi", then left',
        "x;'=1+1;y",
        "tab\t'+SUM(A1)",
        'quoted;\' "=cmd"',
    }


async def test_export_headers_name_the_file(client: AsyncTestClient, tenant: Tenant) -> None:
    response, text = await export(client, tenant, "/feedback/export")
    disposition = response.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="org-a-docs-feedback-')
    assert disposition.endswith('.csv"')
    assert text.startswith("id,project_id,message,status,type,source,created_at,updated_at,archived,")
    assert csv_rows(text) == []
    response, text = await export(client, tenant, "/contact-messages/export?format=ndjson")
    assert response.headers["content-type"].startswith("application/x-ndjson")
    assert response.headers["content-disposition"].endswith(
        "-contact-messages-" + disposition[-15:-5] + '.ndjson"'
    )
    assert text == ""


async def test_export_refuses_bad_parameters(client: AsyncTestClient, tenant: Tenant) -> None:
    for suffix in (
        "/feedback/export?format=xlsx",
        "/feedback/export?status=Maybe",
        "/ratings/export?type=thumbs",
        "/ratings/export?since=yesterday",
        "/ratings/export?path=no-slash",
        "/contact-messages/export?archived=perhaps",
    ):
        response = await client.get(project_url(tenant, suffix), headers=tenant.headers)
        assert response.status_code == 400, suffix
        assert set(response.json()) == {"error", "details"}


async def test_ratings_export_matches_the_typed_list(client: AsyncTestClient, tenant: Tenant) -> None:
    ratings = [
        ({"type": "helpful", "value": True}, {"path": "/a", "metadata": {"reason": "@x"}}),
        ({"type": "helpful", "value": False}, {"path": "/b", "submitted_by": "u-1"}),
        ({"type": "star", "value": 4, "max_stars": 5}, {"path": "/a", "version": "2.0"}),
        ({"type": "nps", "value": 9}, {}),
    ]
    for rating, context in ratings:
        body = {"rating": rating, "context": context} if context else {"rating": rating}
        response = await client.post(project_url(tenant, "/ratings/typed"), json=body, headers=tenant.headers)
        assert response.status_code == 201
    everything: list[dict[str, Any]] = []
    for kind in ("helpful", "star", "nps"):
        listed = (await get_json(client, tenant, f"/ratings/typed?type={kind}&limit=100"))["ratings"]
        exported = ndjson((await export(client, tenant, f"/ratings/export?type={kind}&format=ndjson"))[1])
        assert exported == listed
        everything += listed
    all_types = ndjson((await export(client, tenant, "/ratings/export?format=ndjson"))[1])
    assert sorted(all_types, key=lambda r: r["id"]) == sorted(everything, key=lambda r: r["id"])
    assert [r["created_at"] for r in all_types] == sorted((r["created_at"] for r in all_types), reverse=True)
    rows = csv_rows((await export(client, tenant, "/ratings/export?path=/a"))[1])
    by_type = {row["rating_type"]: row for row in rows}
    assert set(by_type) == {"helpful", "star"}
    assert (by_type["helpful"]["value"], by_type["helpful"]["metadata"]) == ("true", '{"reason":"@x"}')
    assert (by_type["star"]["value"], by_type["star"]["max_stars"], by_type["star"]["version"]) == (
        "4",
        "5",
        "2.0",
    )
    assert ndjson((await export(client, tenant, "/ratings/export?since=2999-01-01&format=ndjson"))[1]) == []
    today = all_types[0]["created_at"][:10]
    assert len(ndjson((await export(client, tenant, f"/ratings/export?until={today}&format=ndjson"))[1])) == 4
    delete = await client.delete(
        project_url(tenant, f"/ratings/{everything[0]['id']}"), headers=tenant.headers
    )
    assert delete.status_code == 204
    assert len(ndjson((await export(client, tenant, "/ratings/export?format=ndjson"))[1])) == 3
    archived = ndjson((await export(client, tenant, "/ratings/export?archived=true&format=ndjson"))[1])
    assert [r["id"] for r in archived] == [everything[0]["id"]]


async def test_contact_export_matches_the_list_and_defuses_formulas(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        service = ContactMessages(session, operator_scope(tenant.project.org_id), tenant.project)
        for n, text in enumerate(TRICKY):
            await service.create(name=text[:200], email=f"p{n}@example.org", message=f"About: {text}")
    for query in ("", "?search=ñandú"):
        listed = (await get_json(client, tenant, f"/contact-messages{query or '?'}&limit=100"))[
            "contact_messages"
        ]
        sep = "&" if query else "?"
        assert (
            ndjson((await export(client, tenant, f"/contact-messages/export{query}{sep}format=ndjson"))[1])
            == listed
        )
        rows = csv_rows((await export(client, tenant, f"/contact-messages/export{query}"))[1])
        assert [row["id"] for row in rows] == [m["id"] for m in listed]
        assert [row["name"] for row in rows] == [as_cell(m["name"]) for m in listed]
        assert [row["message"] for row in rows] == [as_cell(m["message"]) for m in listed]
    names = {row["name"] for row in csv_rows((await export(client, tenant, "/contact-messages/export"))[1])}
    assert "'@SUM(A1:A9)" in names and "'+1 555 0100" in names and "'\rcarriage" in names


async def test_a_large_export_streams_in_bounded_memory(
    tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """30,000 messages of 1 KB each make a 30 MB export; the server side never holds more than a few
    batches of it (the benchmark measures a million rows in a real server process)."""
    rows = 30_000
    async with unit_of_work(session_maker) as session:
        for start in range(0, rows, 5000):
            await session.execute(
                insert(ContactMessage),
                [
                    {
                        "project_id": tenant.project.id,
                        "name": f"n{i}",
                        "email": "e@example.org",
                        "message": "x" * 1000,
                    }
                    for i in range(start, start + 5000)
                ],
            )
        await session.commit()
    query = CONTACT_MESSAGES.select().where(ContactMessage.project_id == tenant.project.id)
    sent = lines = 0
    tracemalloc.start()
    try:
        async for chunk in export_chunks(session_maker, CONTACT_MESSAGES, query, "csv"):
            sent += len(chunk)
            lines += chunk.count(b"\r\n")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lines == rows + 1
    assert sent > 30_000_000
    assert peak < 20_000_000, f"peak {peak / 1e6:.1f} MB while streaming {sent / 1e6:.1f} MB"
