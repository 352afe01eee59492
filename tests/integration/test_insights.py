"""Insights through the API, with the real local model: similar items across languages, search by
meaning, duplicates, themes and their filter, and the answers when insights are off or broken."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from standardwebhooks import Webhook

from app.config import Settings
from app.main import create_app
from tests.factories import Tenant
from tests.integration.public.servers import hearken, server_env
from tests.integration.webhooks.conftest import add_webhook
from tests.receivers import Script, receiver

CRASH_EN = "The Android app crashes as soon as I open it"
CRASH_DE = "Die App stürzt sofort nach dem Öffnen ab"
MESSAGES = [
    CRASH_EN,
    "Please add a dark mode, the white background hurts my eyes at night",
    "The price is too high for a small team like ours",
    "Search doesn't find anything unless I type the exact title",
    "I can't log in anymore, the password reset email never arrives",
    "Could you add a dark theme? The bright white screen is painful at night",
    "Way too expensive for a small team, we can't justify the cost",
    CRASH_DE,
    "Bitte einen Dunkelmodus einbauen, das helle Weiß blendet abends",
    "Appen kraschar direkt när jag öppnar den",
    "Priset är alldeles för högt för ett litet team",
    "Sökningen hittar ingenting om jag inte skriver exakt rätt titel",
]


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, secret_key="test-secret-key-for-the-suite", embeddings="local")


def url(tenant: Tenant, suffix: str = "") -> str:
    return f"/api/v1/projects/{tenant.project_id}{suffix}"


async def create(client: AsyncTestClient[Litestar], tenant: Tenant, messages: list[str]) -> dict[str, str]:
    ids = {}
    for message in messages:
        answer = await client.post(
            url(tenant, "/feedback"), json={"message": message}, headers=tenant.headers
        )
        assert answer.status_code == 201, answer.text
        ids[message] = answer.json()["id"]
    return ids


async def similar(client: AsyncTestClient[Litestar], tenant: Tenant, feedback_id: str, **params: Any) -> Any:
    """The similar items once the item's vector (and its neighbours') are written."""
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    wanted = min(params.get("limit", 5), len(MESSAGES) - 1)
    while True:
        answer = await client.get(
            url(tenant, f"/feedback/{feedback_id}/similar"), params=params, headers=tenant.headers
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        if not body["pending"] and len(body["items"]) >= wanted:
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.3)


async def test_similar_items_and_search_by_meaning_across_languages(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant
) -> None:
    ids = await create(client, tenant, MESSAGES)
    await create(client, other_tenant, [CRASH_EN + "!"])
    await similar(client, tenant, ids[MESSAGES[-1]], limit=len(MESSAGES) - 1)  # every vector written
    body = await similar(client, tenant, ids[CRASH_DE], limit=3)
    found = [entry["feedback"]["message"] for entry in body["items"]]
    assert CRASH_EN in found[:2], found  # the German complaint finds its English twin
    assert ids[CRASH_DE] not in [entry["feedback"]["id"] for entry in body["items"]]
    assert all(0 <= entry["similarity"] <= 1 for entry in body["items"])
    assert [e["similarity"] for e in body["items"]] == sorted(
        (e["similarity"] for e in body["items"]), reverse=True
    )

    listed = await client.get(
        url(tenant, "/feedback"),
        params={"semantic": "the application closes when I start it"},
        headers=tenant.headers,
    )
    assert listed.status_code == 200, listed.text
    order = [item["message"] for item in listed.json()["feedback"]]
    assert set(order[:3]) == {CRASH_EN, CRASH_DE, "Appen kraschar direkt när jag öppnar den"}, order
    assert listed.json()["pagination"]["total"] == len(MESSAGES)  # other organizations' items never
    paged = await client.get(
        url(tenant, "/feedback"),
        params={"semantic": "too expensive", "limit": 2, "page": 1, "type": "Other"},
        headers=tenant.headers,
    )
    assert {item["message"] for item in paged.json()["feedback"]} <= set(MESSAGES)
    assert len(paged.json()["feedback"]) == 2

    too_long = await client.get(
        url(tenant, "/feedback"), params={"semantic": "x" * 501}, headers=tenant.headers
    )
    assert too_long.status_code == 400 and "semantic" in too_long.text
    too_many = await client.get(
        url(tenant, f"/feedback/{ids[CRASH_EN]}/similar"), params={"limit": 21}, headers=tenant.headers
    )
    assert too_many.status_code == 400 and "limit" in too_many.text


async def test_marking_a_duplicate_closes_it_and_counts_it_on_the_original(
    client: AsyncTestClient[Litestar], tenant: Tenant, other_tenant: Tenant
) -> None:
    ids = await create(client, tenant, [CRASH_EN, CRASH_DE, "Dark mode please"])
    with receiver(Script(statuses=[204])) as hook:
        webhook = await add_webhook(client, tenant, hook.url, events=["feedback.updated"])
        await client.patch(
            url(tenant, f"/feedback/{ids[CRASH_DE]}"),
            json={"duplicate_of": ids[CRASH_EN]},
            headers=tenant.headers,
        )
        [request] = await hook.wait_for(1)
    event = Webhook(webhook["secret"]).verify(request.body, request.headers)
    assert event["data"]["duplicate_of"] == ids[CRASH_EN] and event["data"]["status"] == "Closed"
    assert {"field": "duplicate_of", "from": None, "to": ids[CRASH_EN]} in event["changes"]
    await client.patch(
        url(tenant, f"/feedback/{ids[CRASH_DE]}"), json={"duplicate_of": None}, headers=tenant.headers
    )
    foreign = await create(client, other_tenant, ["Somebody else's item"])
    item = url(tenant, f"/feedback/{ids[CRASH_DE]}")
    marked = await client.patch(item, json={"duplicate_of": ids[CRASH_EN]}, headers=tenant.headers)
    assert marked.status_code == 200, marked.text
    assert (marked.json()["status"], marked.json()["duplicate_of"]) == ("Closed", ids[CRASH_EN])
    original = (await client.get(url(tenant, f"/feedback/{ids[CRASH_EN]}"), headers=tenant.headers)).json()
    assert original["duplicate_count"] == 1
    history = (await client.get(item + "/history", headers=tenant.headers)).json()["history"]
    assert {"field": "duplicate_of", "from": None, "to": ids[CRASH_EN]}.items() <= next(
        change for change in history if change["field"] == "duplicate_of"
    ).items()

    for wrong in (ids[CRASH_DE], foreign["Somebody else's item"], "00000000-0000-0000-0000-000000000000"):
        refused = await client.patch(item, json={"duplicate_of": wrong}, headers=tenant.headers)
        assert refused.status_code == 400 and "duplicate_of" in refused.json()["details"], refused.text

    unlinked = await client.patch(item, json={"duplicate_of": None}, headers=tenant.headers)
    assert unlinked.status_code == 200 and "duplicate_of" not in unlinked.json()
    original = (await client.get(url(tenant, f"/feedback/{ids[CRASH_EN]}"), headers=tenant.headers)).json()
    assert "duplicate_count" not in original


async def test_themes_are_recomputed_on_request_and_filter_the_inbox(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    ids = await create(client, tenant, MESSAGES)
    await similar(client, tenant, ids[MESSAGES[-1]], limit=len(MESSAGES) - 1)  # every vector written
    # The periodic pass may have computed themes while the vectors were still being written.
    before = (await client.get(url(tenant, "/themes"), headers=tenant.headers)).json()["computed_at"]
    refreshed = await client.post(url(tenant, "/themes/refresh"), headers=tenant.headers)
    assert refreshed.status_code == 202, refreshed.text
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    while True:
        themes = (await client.get(url(tenant, "/themes"), headers=tenant.headers)).json()
        if themes["computed_at"] not in (None, before):
            break
        assert time.monotonic() < deadline
        await asyncio.sleep(0.3)
    assert themes["pending"] == 0
    assert themes["themes"], themes
    counts = [theme["count"] for theme in themes["themes"]]
    assert counts == sorted(counts, reverse=True)
    crash = next(
        t for t in themes["themes"] if ids[CRASH_EN] in t["sample_ids"] or ids[CRASH_DE] in t["sample_ids"]
    )
    assert crash["label"] in MESSAGES and crash["previous_count"] == 0 and crash["keywords"]
    # Named by its members' words in the project's main language (English here), not by a sentence.
    words = crash["name"].lower().replace(",", "").split()
    assert 2 <= len(words) <= 5 and set(words) <= set(CRASH_EN.lower().split()), crash["name"]
    assert crash["trend"] == "new" and crash["previous_share"] == 0
    assert 0 < crash["confidence"] <= 1
    # Every embedded item of the window is in a theme or Unsorted; shares are of all of them.
    assert sum(counts) + themes["unsorted"] == len(MESSAGES)
    assert crash["share"] == round(crash["count"] / len(MESSAGES), 4)
    listed = (
        await client.get(url(tenant, "/feedback"), params={"theme": crash["id"]}, headers=tenant.headers)
    ).json()
    assert {item["id"] for item in listed["feedback"]} >= set(crash["sample_ids"])
    assert listed["pagination"]["total"] == crash["count"]
    unknown = await client.get(
        url(tenant, "/feedback"), params={"theme": ids[CRASH_EN]}, headers=tenant.headers
    )
    assert unknown.status_code == 400 and "theme" in unknown.json()["details"]
    earlier = await client.get(url(tenant, "/themes"), params={"until": "2020-01-01"}, headers=tenant.headers)
    assert earlier.status_code == 200 and earlier.json()["themes"] == []


async def test_themes_of_a_window_in_the_first_centuries_are_empty_not_an_error(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    for window in ({"since": "0049-01-01", "until": "0662-01-01"}, {"until": "0001-01-01T00:00:00Z"}):
        answer = await client.get(url(tenant, "/themes"), params=window, headers=tenant.headers)
        assert answer.status_code == 200, answer.text
        assert answer.json()["themes"] == []


@pytest.fixture
async def off_client(database_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    app = create_app(
        Settings(database_url=database_url, secret_key="test-secret-key-for-the-suite", embeddings="off")
    )
    async with AsyncTestClient(app=app) as client:
        yield client


async def test_turned_off_the_endpoints_say_so_and_nothing_else_changes(
    off_client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    ids = await create(off_client, tenant, [CRASH_EN])
    for answer in (
        await off_client.get(url(tenant, f"/feedback/{ids[CRASH_EN]}/similar"), headers=tenant.headers),
        await off_client.get(url(tenant, "/feedback"), params={"semantic": "crash"}, headers=tenant.headers),
        await off_client.get(url(tenant, "/themes"), headers=tenant.headers),
        await off_client.post(url(tenant, "/themes/refresh"), headers=tenant.headers),
    ):
        assert answer.status_code == 503, answer.text
        assert (
            answer.json()["error"] == "unavailable" and "HEARKEN_EMBEDDINGS=off" in answer.json()["details"]
        )
    assert (await off_client.get(url(tenant, "/feedback"), headers=tenant.headers)).json()["pagination"][
        "total"
    ] == 1
    ready = (await off_client.get("/readyz")).json()
    assert ready["checks"]["insights"] == "off" and ready["status"] == "ready"


async def test_a_model_that_fails_to_load_degrades_insights_only(
    database_url: str, tenant: Tenant, tmp_path: Path
) -> None:
    broken = tmp_path / "broken-model.bin"
    broken.write_bytes(b"not a model" * 100)
    app = create_app(
        Settings(
            database_url=database_url, secret_key="test-secret-key-for-the-suite",
            embeddings="local", embeddings_model=str(broken),
        )
    )  # fmt: skip
    async with AsyncTestClient(app=app) as client:
        ids = await create(client, tenant, [CRASH_EN])
        searched = await client.get(
            url(tenant, "/feedback"), params={"semantic": "crash"}, headers=tenant.headers
        )
        assert searched.status_code in (200, 503)  # 200 (nothing embedded yet) unless the job failed first
        deadline = time.monotonic() + 60
        while (await client.get("/readyz")).json()["checks"]["insights"] != "degraded":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
        ready = (await client.get("/readyz")).json()
        assert ready["status"] == "degraded" and "failed to load" in ready["details"]
        similar_answer = await client.get(
            url(tenant, f"/feedback/{ids[CRASH_EN]}/similar"), headers=tenant.headers
        )
        assert similar_answer.status_code == 503 and "failed to load" in similar_answer.json()["details"]
        assert (
            await client.get(url(tenant, f"/feedback/{ids[CRASH_EN]}"), headers=tenant.headers)
        ).status_code == 200


async def test_items_stored_while_insights_were_off_are_backfilled(
    database_url: str, off_client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    ids = await create(off_client, tenant, MESSAGES[:3])
    env = {**server_env(database_url), "HEARKEN_EMBEDDINGS": "local"}
    first = hearken(env, "insights", "backfill")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {"queued": 3, "embedder": "multilingual-e5-small-q4"}
    again = hearken(env, "insights", "backfill")
    assert json.loads(again.stdout)["queued"] == 0  # queued once
    app = create_app(
        Settings(database_url=database_url, secret_key="test-secret-key-for-the-suite", embeddings="local")
    )
    async with AsyncTestClient(app=app) as client:
        body = await similar(client, tenant, ids[MESSAGES[0]], limit=2)
    assert {entry["feedback"]["id"] for entry in body["items"]} == {ids[MESSAGES[1]], ids[MESSAGES[2]]}
    refused = hearken({**env, "HEARKEN_EMBEDDINGS": "off"}, "insights", "backfill")
    assert refused.returncode == 1 and "turned off" in refused.stderr


SPAM = [
    "The Android app crashes as soon as I open it. Cheap pills at pills.example",
    "Buy cheap replica watches at watches.example, the best prices online",
    "Cheap replica watches for sale, visit watches.example today",
]


async def every_vector_written(
    client: AsyncTestClient[Litestar], tenant: Tenant, ids: dict[str, str]
) -> None:
    """Each item's vector is written: one of them sees all the others."""
    deadline = time.monotonic() + 300  # generous: embedding gives way to requests on a busy machine
    some = next(iter(ids.values()))
    while True:
        answer = await client.get(
            url(tenant, f"/feedback/{some}/similar"), params={"limit": 20}, headers=tenant.headers
        )
        body = answer.json()
        if not body["pending"] and len(body["items"]) == len(ids) - 1:
            return
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.3)


async def mark_spam(client: AsyncTestClient[Litestar], tenant: Tenant, ids: list[str]) -> None:
    for feedback_id in ids:
        marked = await client.patch(
            url(tenant, f"/feedback/{feedback_id}"), json={"spam": True}, headers=tenant.headers
        )
        assert marked.status_code == 200, marked.text


async def test_spam_is_in_no_similar_list_theme_or_search_by_meaning(
    client: AsyncTestClient[Litestar], tenant: Tenant
) -> None:
    """Review finding 10: items marked spam after their vector was written came back in Similar
    feedback, were clustered into themes and counted in them. Spam is in none of them now, nor in search
    by meaning."""
    ids = await create(client, tenant, MESSAGES + SPAM)
    await every_vector_written(client, tenant, ids)
    spam = {ids[message] for message in SPAM}
    await mark_spam(client, tenant, list(spam))

    body = await similar(client, tenant, ids[CRASH_DE], limit=20)
    found = {entry["feedback"]["id"] for entry in body["items"]}
    assert found == {ids[message] for message in MESSAGES} - {ids[CRASH_DE]}

    searched = await client.get(
        url(tenant, "/feedback"), params={"semantic": "cheap replica watches"}, headers=tenant.headers
    )
    assert not spam & {item["id"] for item in searched.json()["feedback"]}
    assert searched.json()["pagination"]["total"] == len(MESSAGES)

    before = (await client.get(url(tenant, "/themes"), headers=tenant.headers)).json()["computed_at"]
    assert (await client.post(url(tenant, "/themes/refresh"), headers=tenant.headers)).status_code == 202
    deadline = time.monotonic() + 300
    while (themes := (await client.get(url(tenant, "/themes"), headers=tenant.headers)).json())[
        "computed_at"
    ] in (None, before):
        assert time.monotonic() < deadline
        await asyncio.sleep(0.3)
    assert themes["themes"], themes
    for theme in themes["themes"]:
        assert theme["label"] not in SPAM, theme
        assert not spam & set(theme["sample_ids"]), theme
        listed = await client.get(
            url(tenant, "/feedback"), params={"theme": theme["id"]}, headers=tenant.headers
        )
        assert listed.json()["pagination"]["total"] == theme["count"], theme
        of_spam = await client.get(
            url(tenant, "/feedback"), params={"theme": theme["id"], "spam": "true"}, headers=tenant.headers
        )
        assert of_spam.json()["feedback"] == [], theme  # themes are computed without spam
