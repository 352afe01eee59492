"""Mintlify page feedback: the per-project integration, "Sync now" and the import it runs, against a
local fake of Mintlify's documented API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import app.integrations.mintlify_api
from app.config import Settings
from app.db.models import MintlifyIntegration
from app.db.transactions import unit_of_work
from app.integrations.mintlify_integrations import import_mintlify_feedback
from app.integrations.mintlify_schedule import run_due_imports
from tests.factories import Tenant
from tests.fake_mintlify import FakeMintlify, Refusal, running

API_KEY = "mint_0123456789abcdefSECRET"


@pytest.fixture(scope="module")
def served_fake() -> Iterator[FakeMintlify]:
    with running(FakeMintlify(project_id="proj_docs", api_key=API_KEY)) as server:
        yield server


@pytest.fixture
def fake(served_fake: FakeMintlify) -> FakeMintlify:
    """The module's fake, as new: one address for the module, so that the application (its settings
    name the address) is built once per database, not once per test (about 0.4 s of CPU a build)."""
    served_fake.forget()
    return served_fake


@pytest.fixture
def settings(database_url: str, fake: FakeMintlify) -> Settings:
    """No periodic jobs: the tests run the periodic import themselves (run_due_imports), and the
    application's own pass, due at once after enabling, took pages from the fake meant for a test's sync."""
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        mintlify_api_url=fake.url,
        periodic_jobs=False,
    )


def url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}/integrations/mintlify{suffix}"


async def enable(client: AsyncTestClient, tenant: Tenant, key: str = API_KEY) -> dict[str, Any]:
    response = await client.put(
        url(tenant), json={"project_id": "proj_docs", "api_key": key}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    return response.json()


async def sync(client: AsyncTestClient, tenant: Tenant) -> Any:
    return await client.post(url(tenant, "/sync"), headers=tenant.headers)


async def mintlify_feedback(client: AsyncTestClient, tenant: Tenant, query: str = "") -> dict[str, Any]:
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback?source=Mintlify{query}", headers=tenant.headers
    )
    assert response.status_code == 200
    return response.json()


async def test_enabling_never_returns_the_key_and_stores_it_encrypted(
    client: AsyncTestClient, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    body = await enable(client, tenant)
    assert body == {
        "enabled": True,
        "project_id": "proj_docs",
        "last_synced_at": None,
        "last_error": None,
        "imported": 0,
    }
    got = await client.get(url(tenant), headers=tenant.read_headers)
    assert got.json() == body and API_KEY not in got.text
    async with unit_of_work(session_maker) as session:
        sealed = await session.scalar(select(MintlifyIntegration.sealed_api_key))
    assert sealed and API_KEY not in sealed and "SECRET" not in sealed


async def test_bad_settings_are_400_naming_the_field(client: AsyncTestClient, tenant: Tenant) -> None:
    for body, field in (
        ({"api_key": API_KEY}, "project_id"),
        ({"project_id": "proj_docs"}, "api_key"),
        ({"project_id": "../other", "api_key": API_KEY}, "project_id"),
        ({"project_id": "proj_docs", "api_key": "has space"}, "api_key"),
    ):
        response = await client.put(url(tenant), json=body, headers=tenant.headers)
        assert response.status_code == 400 and field in response.json()["details"], body
    assert (await client.get(url(tenant), headers=tenant.headers)).status_code == 404
    assert (await sync(client, tenant)).status_code == 404


async def test_an_import_brings_every_page_as_ordinary_feedback(
    client: AsyncTestClient,
    tenant: Tenant,
    fake: FakeMintlify,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """The import itself, as the periodic job runs it (without a request's time limit: the pages of a
    sync are the next test's)."""
    fake.add(250, contact="ada@example.org")
    fake.records.append(
        {
            "id": "fb_blank",
            "path": "/docs/x",
            "comment": "  ",
            "createdAt": "2026-11-20T09:00:00Z",
            "source": "contextual",
            "status": "pending",
        }
    )
    fake.records.append(
        {
            "id": "fb_code",
            "path": "/docs/api",
            "comment": "Wrong import",
            "createdAt": "2026-11-19T09:00:00Z",
            "source": "code_snippet",
            "status": "pending",
            "code": "import x",
            "filename": "main.py",
            "lang": "python",
        }
    )
    await enable(client, tenant)
    async with unit_of_work(session_maker) as session:
        integration_id = await session.scalar(select(MintlifyIntegration.id))
    assert integration_id is not None
    assert await import_mintlify_feedback(session_maker, settings, integration_id) == 251
    assert [r["query"].get("cursor") for r in fake.requests] == [None, "100", "200"]
    assert {r["query"]["limit"] for r in fake.requests} == {"100"}
    assert {r["auth"] for r in fake.requests} == {f"Bearer {API_KEY}"}
    listed = await mintlify_feedback(client, tenant)
    assert listed["pagination"]["total"] == 251
    newest = listed["feedback"][0]
    assert (newest["message"], newest["path"], newest["source"], newest["type"], newest["status"]) == (
        "Comment 249",
        "/docs/page-249",
        "Mintlify",
        "Other",
        "New",
    )
    assert newest["created_at"] == "2026-11-20T10:04:09.000Z"
    assert newest["metadata"] == {
        "mintlify_id": "fb_0249",
        "mintlify_source": "contextual",
        "helpful": False,
        "contact": "ada@example.org",
    }
    (code,) = (await mintlify_feedback(client, tenant, "&sort=created_at&limit=1"))["feedback"]
    assert code["metadata"] == {
        "mintlify_id": "fb_code",
        "mintlify_source": "code_snippet",
        "filename": "main.py",
        "lang": "python",
    }
    project = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
    assert project.json()["feedback_count"] == 251
    state = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert state["imported"] == 251 and state["last_error"] is None and state["last_synced_at"]


async def test_a_sync_stops_when_its_time_is_spent_and_the_periodic_import_finishes(
    client: AsyncTestClient,
    tenant: Tenant,
    fake: FakeMintlify,
    settings: Settings,
    session_maker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large backlog never outlasts the request: the sync answers what its time allowed (one page
    here, its time being none) and the periodic import, due at once, brings the rest (pages of two)."""
    monkeypatch.setattr("app.api.integrations.SYNC_SECONDS", 0.0)
    monkeypatch.setattr(app.integrations.mintlify_api, "PAGE_SIZE", 2)
    fake.add(5)
    await enable(client, tenant)
    assert (await sync(client, tenant)).json() == {"imported": 2}
    state = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert state["imported"] == 2 and state["last_error"] is None
    await run_due_imports(session_maker, settings)  # the periodic job's look
    assert (await mintlify_feedback(client, tenant))["pagination"]["total"] == 5
    assert (await client.get(url(tenant), headers=tenant.headers)).json()["imported"] == 5
    assert (await sync(client, tenant)).json() == {"imported": 0}


async def test_the_next_sync_asks_from_the_newest_and_imports_only_what_is_new(
    client: AsyncTestClient, tenant: Tenant, fake: FakeMintlify
) -> None:
    fake.add(3)
    await enable(client, tenant)
    assert (await sync(client, tenant)).json() == {"imported": 3}
    fake.add(2, start=3)
    fake.requests.clear()
    assert (await sync(client, tenant)).json() == {"imported": 2}
    assert fake.requests[0]["query"]["dateFrom"] == "2026-11-20T10:00:02.000Z"
    assert (await sync(client, tenant)).json() == {"imported": 0}
    assert (await mintlify_feedback(client, tenant))["pagination"]["total"] == 5
    assert (await client.get(url(tenant), headers=tenant.headers)).json()["imported"] == 5


async def test_a_wrong_key_is_502_naming_the_upstream_status_and_kept_as_last_error(
    client: AsyncTestClient, tenant: Tenant, fake: FakeMintlify
) -> None:
    fake.add(2)
    await enable(client, tenant, key="mint_wrong")
    response = await sync(client, tenant)
    assert response.status_code == 502
    assert response.json()["error"] == "upstream_error"
    assert "401" in response.json()["details"] and "mint_wrong" not in response.text
    state = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert "401" in state["last_error"] and state["last_synced_at"] is None
    await enable(client, tenant)  # the right key: the error is forgotten and the import works
    assert (await sync(client, tenant)).json() == {"imported": 2}
    assert (await client.get(url(tenant), headers=tenant.headers)).json()["last_error"] is None


async def test_a_429_keeps_what_earlier_pages_brought_and_the_next_sync_finishes(
    client: AsyncTestClient, tenant: Tenant, fake: FakeMintlify, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages of two, and no time limit of the sync's own (the request's deadline still holds): a loaded
    machine took more than the sync's seconds to store a first page of a hundred, and the sync then
    answered 200 before it asked for the page the fake refuses."""
    monkeypatch.setattr(app.integrations.mintlify_api, "PAGE_SIZE", 2)
    monkeypatch.setattr("app.api.integrations.SYNC_SECONDS", None)
    fake.add(3)
    await enable(client, tenant)
    original = fake.answer
    calls = []

    def second_page_limited(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 2:
            return 429, {"Retry-After": "120"}, b'{"error": "rate limited"}', 0
        return original(*args)

    # Undone even when the test fails: the fake serves the rest of the module.
    monkeypatch.setattr(fake, "answer", second_page_limited)
    response = await sync(client, tenant)
    assert response.status_code == 502
    assert "429" in response.json()["details"] and "120 seconds" in response.json()["details"]
    state = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert state["imported"] == 2 and "429" in state["last_error"]
    monkeypatch.setattr(fake, "answer", original)
    assert (await sync(client, tenant)).json() == {"imported": 1}
    assert (await mintlify_feedback(client, tenant))["pagination"]["total"] == 3


async def test_a_timeout_and_bad_json_are_upstream_errors_not_crashes(
    client: AsyncTestClient, tenant: Tenant, fake: FakeMintlify, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.integrations.mintlify_api, "TIMEOUT_SECONDS", 0.5)
    fake.add(1)
    await enable(client, tenant)
    fake.refuse_next(Refusal(status=200, body=b"{}", delay=2.0))
    slow = await sync(client, tenant)
    assert slow.status_code == 502 and "did not answer" in slow.json()["details"]
    for body in (b"<html>oops</html>", b'{"feedback": "nope"}', b"[]"):
        fake.refuse_next(Refusal(status=200, body=body))
        bad = await sync(client, tenant)
        assert bad.status_code == 502 and "not its documented JSON" in bad.json()["details"], body
    assert (await sync(client, tenant)).json() == {"imported": 1}


async def test_removing_stops_the_import_and_keeps_the_items(
    client: AsyncTestClient, tenant: Tenant, fake: FakeMintlify
) -> None:
    fake.add(2)
    await enable(client, tenant)
    await sync(client, tenant)
    assert (await client.delete(url(tenant), headers=tenant.headers)).status_code == 204
    assert (await client.get(url(tenant), headers=tenant.headers)).status_code == 404
    assert (await sync(client, tenant)).status_code == 404
    assert (await mintlify_feedback(client, tenant))["pagination"]["total"] == 2


async def test_an_import_passes_the_nesting_and_nul_rules_of_requests(
    client: AsyncTestClient,
    tenant: Tenant,
    fake: FakeMintlify,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """A page nested 2,000 deep is an upstream error (502), not a crash; NUL characters in a record are
    stripped from everything kept (PostgreSQL stores none; the upstream cannot be asked to resend)."""
    await enable(client, tenant)
    fake.refuse_next(Refusal(status=200, body=b'{"feedback": [' + b"[" * 2000 + b"]" * 2000 + b"]}"))
    deep = await sync(client, tenant)
    assert deep.status_code == 502 and "not its documented JSON" in deep.json()["details"]
    fake.records.append(
        {
            "id": "fb_\x00nul",
            "path": "/docs/nul",
            "comment": "Broken\x00 link",
            "createdAt": "2026-11-21T10:00:00Z",
            "source": "code\x00snippet",
            "contact": "ada\x00@example.org",
        }
    )
    assert (await sync(client, tenant)).json() == {"imported": 1}
    [item] = (await mintlify_feedback(client, tenant))["feedback"]
    assert item["message"] == "Broken link"
    assert item["metadata"] == {
        "mintlify_id": "fb_nul",
        "mintlify_source": "codesnippet",
        "contact": "ada@example.org",
    }
    assert (await sync(client, tenant)).json() == {"imported": 0}  # claimed under its stripped id
