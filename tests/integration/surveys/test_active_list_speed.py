"""The active list is asked on every page view of every visitor: once warm it is served from the worker's
memory (no query) in at most 2 ms (median) with 50 active surveys, and a change to a survey in another
session is served at once (the cache generation moves)."""

from __future__ import annotations

import statistics
import time
from dataclasses import replace
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.db.models import Survey
from app.db.transactions import unit_of_work
from app.surveys.bodies import SurveyCreateBody
from app.surveys.service import Surveys
from tenants.scope import operator_scope
from tests.factories import Tenant
from tests.integration.surveys.conftest import ALLOWED, every_type


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A budget no loop of requests from one address reaches."""
    return replace(settings, rate_limit_client=RateLimit(1_000_000, 60))


async def get_active(app: Litestar, project_key: str) -> tuple[int, bytes]:
    """One GET through the ASGI interface: its status and body."""
    scope: Any = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/v1/surveys/active",
        "raw_path": b"/api/v1/surveys/active",
        "query_string": f"project_key={project_key}".encode(),
        "root_path": "",
        "client": ("203.0.113.9", 50000),
        "server": ("testserver", 80),
        "headers": [(b"origin", ALLOWED.encode())],
        "state": {},
    }
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body


async def test_fifty_active_surveys_are_served_from_memory_within_two_ms(
    app: Litestar, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    async with unit_of_work(session_maker) as session:
        surveys = Surveys(session, operator_scope(tenant.org_id, "tests"), tenant.project)
        for at in range(50):
            body = every_type(
                name=f"Survey {at}", trigger={"pages": [f"/docs/{at}/**"], "seconds_on_page": at}
            )
            await surveys.create(msgspec.convert(body, SurveyCreateBody))
    async with app.lifespan():  # type: ignore[attr-defined]
        status, body = await get_active(app, tenant.project_key)
        assert status == 200
        assert len(msgspec.json.decode(body)["surveys"]) == 50
        statements: list[str] = []

        def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            statements.append(statement)

        event.listen(Engine, "before_cursor_execute", record)
        try:
            took = []
            for _ in range(300):
                started = time.perf_counter()
                status, _ = await get_active(app, tenant.project_key)
                took.append(time.perf_counter() - started)
                assert status == 200
        finally:
            event.remove(Engine, "before_cursor_execute", record)
        assert statements == []
        assert statistics.median(took) <= 0.002, f"median {statistics.median(took) * 1000:.2f} ms"

        async with unit_of_work(session_maker) as session:
            first = await session.get(Survey, msgspec.json.decode(body)["surveys"][0]["id"])
            assert first is not None
            first.status = "paused"
        _, after = await get_active(app, tenant.project_key)
        assert len(msgspec.json.decode(after)["surveys"]) == 49
