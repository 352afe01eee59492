"""Webhook tests run the application with a dispatcher that polls often and retries after a fraction
of a second, and real receivers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from app.config import Settings
from tests.factories import Tenant
from tests.receivers import Receiver, Script, receiver

QUICK_RETRIES = (0.2, 0.2, 0.2)


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        webhook_retry_schedule=QUICK_RETRIES,
        outbox_poll_seconds=0.05,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


@pytest.fixture
def hook() -> Iterator[Receiver]:
    with receiver(Script(statuses=[204])) as running:
        yield running


async def add_webhook(
    client: AsyncTestClient[Litestar], tenant: Tenant, url: str, **fields: Any
) -> dict[str, Any]:
    response = await client.post("/api/v1/webhooks", json={"url": url, **fields}, headers=tenant.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created
