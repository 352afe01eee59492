"""HEARKEN_EMBEDDINGS naming an OpenAI-compatible embeddings service: a local fake that follows that
API (POST {url}/v1/embeddings {"model", "input"} -> {"data": [{"index", "embedding"}]}) is asked with the
configured model, and similar items come from its vectors; a failing service fails the jobs, not the app."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.config import Settings
from app.main import create_app
from tests.factories import Tenant
from tests.server_processes import free_port

DIMENSIONS = 64


def vector_of(text: str) -> list[float]:
    """A bag of hashed words: texts sharing words are near (the fake needs no model)."""
    vector = [0.0] * DIMENSIONS
    for word in text.lower().split():
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
    return vector


class FakeService:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.failing = False

    async def embeddings(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        if self.failing:
            return web.json_response({"error": "overloaded"}, status=503)
        data = [
            {"object": "embedding", "index": i, "embedding": vector_of(t)}
            for i, t in enumerate(body["input"])
        ]
        return web.json_response({"object": "list", "data": list(reversed(data)), "model": body["model"]})


@pytest.fixture
async def service() -> AsyncIterator[tuple[FakeService, str]]:
    fake = FakeService()
    application = web.Application()
    application.router.add_post("/v1/embeddings", fake.embeddings)
    runner = web.AppRunner(application)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield fake, f"http://127.0.0.1:{port}"
    await runner.cleanup()


@pytest.fixture
async def client(
    database_url: str, service: tuple[FakeService, str]
) -> AsyncIterator[AsyncTestClient[Litestar]]:
    settings = Settings(
        database_url=database_url, secret_key="test-secret-key-for-the-suite",
        embeddings=service[1], embeddings_model="fake-embedder",
    )  # fmt: skip
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def test_vectors_come_from_the_named_service(
    client: AsyncTestClient[Litestar], tenant: Tenant, service: tuple[FakeService, str]
) -> None:
    fake, _ = service
    base = f"/api/v1/projects/{tenant.project_id}/feedback"
    messages = ["export to excel please", "please add export to excel", "dark mode at night"]
    ids = []
    for message in messages:
        answer = await client.post(base, json={"message": message}, headers=tenant.headers)
        ids.append(answer.json()["id"])
    deadline = time.monotonic() + 60
    while True:
        body = (
            await client.get(f"{base}/{ids[0]}/similar", params={"limit": 2}, headers=tenant.headers)
        ).json()
        if not body["pending"] and len(body["items"]) == 2:
            break
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.2)
    assert body["items"][0]["feedback"]["id"] == ids[1]  # the fake's answer, read by index, not by order
    assert {request["model"] for request in fake.requests} == {"fake-embedder"}
    assert sorted(text for request in fake.requests for text in request["input"]) == sorted(messages)

    fake.failing = True
    searched = await client.get(base, params={"semantic": "excel"}, headers=tenant.headers)
    assert searched.status_code == 503 and searched.json()["error"] == "unavailable", searched.text
    assert (await client.get(base, headers=tenant.headers)).status_code == 200
