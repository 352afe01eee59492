"""The public paths are the hottest in the product: once warm, a submission reads nothing from the
database (project key and origins come from the cache) and only writes its rows."""

from __future__ import annotations

import asyncio
import gc
import uuid
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import OutboxJob
from app.db.models.outbox_job import JobStatus
from tests.factories import Tenant
from tests.integration.public.conftest import ALLOWED, SUCCESS, valid_bodies


async def test_a_warm_submission_issues_no_select(client: AsyncTestClient, tenant: Tenant) -> None:
    bodies = valid_bodies(tenant.project_key)
    for endpoint, body in bodies.items():  # warm the cache
        assert (await client.post(endpoint, json=body, headers={"Origin": ALLOWED})).status_code == SUCCESS[
            endpoint
        ]

    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not _in_the_outbox():
            statements.append(statement.split(None, 1)[0].upper())

    event.listen(Engine, "before_cursor_execute", record)
    try:
        for endpoint, body in bodies.items():
            response = await client.post(endpoint, json=body, headers={"Origin": ALLOWED})
            assert response.status_code == SUCCESS[endpoint]
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert statements
    assert "SELECT" not in statements, statements


def _in_the_outbox() -> bool:
    """Whether a statement comes from the outbox's own tasks (`outbox-*`), which send the stored items'
    notifications meanwhile; a batch writer's thread (no event loop) and the requests are the submission's."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    return task is not None and task.get_name().startswith("outbox-")


@pytest.mark.parametrize(("refusal", "status"), [("origin", 403), ("project_key", 404), ("budget", 429)])
async def test_a_refused_submission_leaves_nothing_for_the_cycle_collector(
    app: Litestar,
    settings: Settings,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    refusal: str,
    status: int,
) -> None:
    """Refusals are what a flood is made of (a client over its budget, a page on a removed origin), so
    each is freed as soon as it is answered, as a stored submission is. When refusals were raised
    inside a batch, exception, traceback, frames and futures formed cycles (about 70 objects a
    request) and a refused request cost twice the CPU of a stored one, in the garbage collector.
    The requests go straight to the application: the test client's own objects form cycles."""
    bodies = valid_bodies(str(uuid.uuid4()) if refusal == "project_key" else tenant.project_key)
    origin = "https://elsewhere.example" if refusal == "origin" else ALLOWED

    async def refuse_each() -> None:
        for endpoint, body in bodies.items():
            assert await _post(app, endpoint, msgspec.json.encode(body), origin) == status

    async def spend_the_budget() -> None:
        for endpoint, body in bodies.items():
            for _ in range(settings.rate_limit_client.requests):
                assert await _post(app, endpoint, msgspec.json.encode(body), origin) == SUCCESS[endpoint]

    async with app.lifespan():
        if refusal == "budget":
            await spend_the_budget()
        await refuse_each()  # caches filled, lazily built objects built
        await _outbox_idle(session_maker)  # the stored ones' notifications are sent, not counted below
        gc.collect()
        gc.disable()
        try:
            for _ in range(10):
                await refuse_each()
            left_in_cycles = gc.collect()
        finally:
            gc.enable()
    assert left_in_cycles == 0


async def _outbox_idle(session_maker: async_sessionmaker[AsyncSession], seconds: float = 15) -> None:
    pending = select(func.count()).select_from(OutboxJob).where(OutboxJob.status == JobStatus.PENDING.value)
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        async with session_maker() as session:
            if not await session.scalar(pending):
                return
        assert asyncio.get_running_loop().time() < deadline, "the outbox never emptied"
        await asyncio.sleep(0.05)


async def test_a_burst_of_stored_ratings_sets_off_no_garbage_collection(
    app: Litestar, tenant: Tenant
) -> None:
    """Ratings wait for their batch's commit, so a loaded worker holds many live requests at once; with
    CPython's default young threshold that alone set off a collection every few hundred ratings, each
    walking the objects startup built (about 15 % of a worker's CPU, for no garbage found). While the
    application serves, those objects are frozen and the threshold is raised (app/ingest/gc_settings.py)."""
    body = msgspec.json.encode(valid_bodies(tenant.project_key)["/api/v1/rating/submit"])
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    threshold = gc.get_threshold()
    async with app.lifespan():
        await _post(app, "/api/v1/rating/submit", body, ALLOWED)  # caches filled
        gc.callbacks.append(count)
        try:
            for _ in range(5):  # from 64 visitors, each well within the budget of a client
                visitors = (f"198.51.100.{n}" for n in range(64))
                statuses = await asyncio.gather(
                    *(_post(app, "/api/v1/rating/submit", body, ALLOWED, visitor) for visitor in visitors)
                )
                assert set(statuses) == {204}
        finally:
            gc.callbacks.remove(count)
        assert collections == []
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == threshold  # restored at shutdown


async def test_starting_the_application_again_walks_no_frozen_object(
    app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process freezes what its first start built, once: a later start (the tests start an application
    about two thousand times per worker) neither collects again nor counts the frozen objects, which
    walks all of them (37 ms after startup)."""
    async with app.lifespan():
        pass
    walks: list[str] = []
    monkeypatch.setattr(gc, "get_freeze_count", lambda: walks.append("counted") or 1)
    monkeypatch.setattr(gc, "collect", lambda *_: walks.append("collected") or 0)
    async with app.lifespan():
        pass
    assert walks == []


async def _post(app: Litestar, path: str, body: bytes, origin: str, address: str = "203.0.113.9") -> int:
    """One POST through the ASGI interface, from a client at this address; its status."""
    scope: Any = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "client": (address, 50000),
        "server": ("testserver", 80),
        "headers": [(b"content-type", b"application/json"), (b"origin", origin.encode())],
        "state": {},
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    statuses: list[int] = []

    async def receive() -> Any:
        return messages.pop() if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await app(scope, receive, send)
    return statuses[0]
