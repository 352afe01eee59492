"""The insights tools and filters over MCP answer what the REST insights routes answer (the same service):
similar items, search by meaning and themes with the real local model, the REST 503 words as a tool error
when insights are off, and duplicates counted on the original."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar import Litestar

from app.config import Settings
from app.main import create_app
from tests.factories import Tenant
from tests.integration.mcp.conftest import with_changes
from tests.integration.mcp.test_mcp_tools import call, refused
from tests.mcp_clients import bearer, mcp_client, served

MESSAGES = [
    "The Android app crashes as soon as I open it",
    "Please add a dark mode, the white background hurts my eyes at night",
    "The price is too high for a small team like ours",
    "Die App stürzt sofort nach dem Öffnen ab",
    "Could you add a dark theme? The bright white screen is painful at night",
    "Way too expensive for a small team, we can't justify the cost",
]


@pytest.fixture
async def base_url(app: Litestar) -> AsyncIterator[str]:
    async with served(app) as url:
        yield url


@pytest.fixture
async def rest(base_url: str, tenant: Tenant) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"{base_url}/api/v1", headers=tenant.headers, timeout=30) as client:
        yield client


async def create(rest: httpx.AsyncClient, tenant: Tenant, messages: list[str]) -> list[str]:
    ids = []
    for message in messages:
        answer = await rest.post(f"/projects/{tenant.project_id}/feedback", json={"message": message})
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["id"])
    return ids


async def test_turned_off_the_insights_tools_answer_the_rest_503_words(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant
) -> None:
    pid = tenant.project_id
    [fid] = await create(rest, tenant, [MESSAGES[0]])
    answers = [
        await rest.get(f"/projects/{pid}/themes"),
        await rest.get(f"/projects/{pid}/feedback/{fid}/similar"),
        await rest.get(f"/projects/{pid}/feedback", params={"semantic": "slow search"}),
    ]
    assert [answer.status_code for answer in answers] == [503, 503, 503]
    async with mcp_client(base_url, bearer(tenant.read_token)) as client:
        bodies = [
            await refused(client, "list_themes", {"project_id": pid}),
            await refused(client, "similar_feedback", {"project_id": pid, "feedback_id": fid}),
            await refused(client, "list_feedback", {"project_id": pid, "semantic": "slow search"}),
        ]
        unknown_theme = await refused(client, "list_feedback", {"project_id": pid, "theme": fid})
        plain = await call(client, "list_feedback", {"project_id": pid})
    assert bodies == [answer.json() for answer in answers]
    assert bodies[0] == {
        "error": "unavailable",
        "details": "insights are turned off on this server (HEARKEN_EMBEDDINGS=off)",
    }
    rest_unknown = await rest.get(f"/projects/{pid}/feedback", params={"theme": fid})
    assert rest_unknown.status_code == 400 and unknown_theme == rest_unknown.json()
    assert plain["pagination"]["total"] == 1  # everything else works without insights


async def test_feedback_tools_carry_duplicate_of_and_duplicate_count(
    base_url: str, rest: httpx.AsyncClient, tenant: Tenant
) -> None:
    pid = tenant.project_id
    original, repeat = await create(rest, tenant, MESSAGES[:1] + MESSAGES[3:4])
    async with mcp_client(base_url, bearer(tenant.token)) as client:
        marked = await call(
            client, "update_feedback", {"project_id": pid, "feedback_id": repeat, "duplicate_of": original}
        )
        got = await call(client, "get_feedback", {"project_id": pid, "feedback_id": original})
        listed = await call(client, "list_feedback", {"project_id": pid})
    assert marked["duplicate_of"] == original and marked["status"] == "Closed"
    assert got["duplicate_count"] == 1
    assert got == (await rest.get(f"/projects/{pid}/feedback/{original}")).json()
    assert listed == (await rest.get(f"/projects/{pid}/feedback")).json()
    assert {item["id"]: item.get("duplicate_count") for item in listed["feedback"]} == {
        original: 1,
        repeat: None,
    }


@pytest.fixture
def insights_app(settings: Settings) -> Litestar:
    return create_app(with_changes(settings, embeddings="local"))


async def until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.3)


async def test_with_insights_on_the_tools_answer_what_the_rest_routes_answer(
    insights_app: Litestar, tenant: Tenant
) -> None:
    pid = tenant.project_id
    async with (
        served(insights_app) as base_url,
        httpx.AsyncClient(base_url=f"{base_url}/api/v1", headers=tenant.headers, timeout=60) as rest,
    ):
        ids = await create(rest, tenant, MESSAGES)

        async def every_vector_written() -> bool:
            body = (await rest.get(f"/projects/{pid}/feedback/{ids[-1]}/similar", params={"limit": 5})).json()
            return not body["pending"] and len(body["items"]) == len(MESSAGES) - 1

        await until(every_vector_written, "vectors")
        # The periodic pass may have computed themes while the vectors were still being written.
        before = (await rest.get(f"/projects/{pid}/themes")).json()["computed_at"]
        assert (await rest.post(f"/projects/{pid}/themes/refresh")).status_code == 202

        async def computed() -> Any:
            body = (await rest.get(f"/projects/{pid}/themes")).json()
            return body if body["computed_at"] not in (None, before) else None

        themes = await until(computed, "themes")
        assert themes["themes"], themes

        async def settled() -> bool:  # a pass begun before the refresh is followed by the refresh's own
            first = (await rest.get(f"/projects/{pid}/themes")).json()
            await asyncio.sleep(1.5)
            return bool(first == (await rest.get(f"/projects/{pid}/themes")).json())

        await until(settled, "themes settled")

        async with mcp_client(base_url, bearer(tenant.read_token)) as client:
            similar = await call(
                client, "similar_feedback", {"project_id": pid, "feedback_id": ids[3], "limit": 3}
            )
            semantic = await call(
                client, "list_feedback", {"project_id": pid, "semantic": "the application closes", "limit": 4}
            )
            listed_themes = await call(client, "list_themes", {"project_id": pid})
            theme = listed_themes["themes"][0]["id"]
            of_theme = await call(client, "list_feedback", {"project_id": pid, "theme": theme})
            too_long = await refused(
                client, "similar_feedback", {"project_id": pid, "feedback_id": ids[0], "limit": 21}
            )

        assert (
            similar
            == (await rest.get(f"/projects/{pid}/feedback/{ids[3]}/similar", params={"limit": 3})).json()
        )
        assert similar["items"][0]["feedback"]["id"] == ids[0]  # the German crash finds the English one
        assert (
            semantic
            == (
                await rest.get(
                    f"/projects/{pid}/feedback", params={"semantic": "the application closes", "limit": 4}
                )
            ).json()
        )
        assert {item["id"] for item in semantic["feedback"][:2]} == {ids[0], ids[3]}
        assert listed_themes == (await rest.get(f"/projects/{pid}/themes")).json()
        assert of_theme == (await rest.get(f"/projects/{pid}/feedback", params={"theme": theme})).json()
        assert of_theme["pagination"]["total"] == listed_themes["themes"][0]["count"]
        assert too_long["error"] == "invalid_request" and too_long["details"].startswith("limit:")


SPAM_CRASH = "The Android app crashes as soon as I open it. Cheap pills at pills.example"


async def test_similar_feedback_lists_no_spam(insights_app: Litestar, tenant: Tenant) -> None:
    """Review finding 10: an item marked spam after its vector was written was listed by the
    similar_feedback tool (as by the REST route and the console, from the same service)."""
    pid = tenant.project_id
    async with (
        served(insights_app) as base_url,
        httpx.AsyncClient(base_url=f"{base_url}/api/v1", headers=tenant.headers, timeout=60) as rest,
    ):
        ids = await create(rest, tenant, [*MESSAGES, SPAM_CRASH])

        async def every_vector_written() -> bool:
            body = (
                await rest.get(f"/projects/{pid}/feedback/{ids[-1]}/similar", params={"limit": 20})
            ).json()
            return not body["pending"] and len(body["items"]) == len(MESSAGES)

        await until(every_vector_written, "vectors")
        marked = await rest.patch(f"/projects/{pid}/feedback/{ids[-1]}", json={"spam": True})
        assert marked.status_code == 200, marked.text
        async with mcp_client(base_url, bearer(tenant.read_token)) as client:
            similar = await call(
                client, "similar_feedback", {"project_id": pid, "feedback_id": ids[0], "limit": 20}
            )
    assert {entry["feedback"]["id"] for entry in similar["items"]} == set(ids[1:-1])
