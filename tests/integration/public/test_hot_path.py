"""The public paths are the hottest in the product: once warm, a submission reads nothing from the
database (project key and origins come from the cache) and only writes its rows."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

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
