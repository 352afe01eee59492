"""Several nodes sharing Redis: a member turned off over SCIM through one node is out at once on another
(its console session there, its connected app in that node's token cache); and each SCIM token has a
budget of requests of its own."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
import redis.asyncio as redis
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import RateLimit, Settings
from app.main import create_app
from tests.console_helpers import Console, add_user
from tests.factories import Tenant
from tests.integration.scim.conftest import Scim, provisioned, scim_token
from tests.integration.scim.connected_apps import connect_app
from tests.services import REDIS_URL, require_redis

PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"


@pytest.mark.redis
async def test_turned_off_through_one_node_is_out_on_another(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    require_redis()
    prefix = f"hearken-test:{uuid.uuid4().hex}:"
    shared = replace(settings, redis_url=REDIS_URL, redis_prefix=prefix)
    node_a, node_b = create_app(shared), create_app(shared)
    ada = await add_user(session_maker, tenant.org_id, "ada@acme.example", "member")
    assistant = {"Authorization": f"Bearer {await connect_app(session_maker, tenant.org_id, ada.id)}"}
    try:
        async with AsyncTestClient(app=node_a) as on_a, AsyncTestClient(app=node_b) as on_b:
            console = Console(on_a)
            await console.login(ada.email)
            assert (await console.get("/projects", follow_redirects=False)).status_code == 200
            assert (await on_a.post("/mcp", json={}, headers=assistant)).status_code != 401  # in A's cache

            scim = await provisioned(session_maker, on_b, tenant.org_id, "acme.example")
            off = {
                "schemas": [PATCH_OP],
                "Operations": [{"op": "Replace", "path": "active", "value": "False"}],
            }
            assert (await scim.request("PATCH", f"/Users/{ada.id}", off)).status_code == 200

            assert (await console.get("/projects", follow_redirects=False)).headers["location"] == "/login"
            assert (await on_a.post("/mcp", json={}, headers=assistant)).status_code == 401
    finally:
        async with redis.Redis.from_url(REDIS_URL) as client:
            keys = [key async for key in client.scan_iter(f"{prefix}*")]
            if keys:
                await client.delete(*keys)


async def test_each_scim_token_has_its_own_budget(
    settings: Settings, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    app = create_app(replace(settings, rate_limit_scim=RateLimit(3, 60)))
    async with AsyncTestClient(app=app) as client:
        first = Scim(
            client, await scim_token(session_maker, tenant.org_id, "acme.example"), tenant.org_id, ""
        )
        second = Scim(client, await scim_token(session_maker, tenant.org_id, "acme.org"), tenant.org_id, "")
        for _ in range(3):
            assert (await first.request("GET", "/Groups")).status_code == 200
        spent = await first.request("GET", "/Groups")
        assert spent.status_code == 429 and spent.json()["status"] == "429"
        assert int(spent.headers["retry-after"]) > 0
        assert (await second.request("GET", "/Groups")).status_code == 200
