"""A SCIM PATCH racing a DELETE of the same user is 200 or 404, never a server error (the API's PATCH
routes are raced the same way in `tests/integration/test_deleted_meanwhile.py`); the role groups cannot
be deleted, so only their members move."""

from __future__ import annotations

import asyncio
import random

from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tests.console_helpers import concurrent_clients
from tests.factories import Tenant
from tests.integration.scim.conftest import SCIM_JSON, scim_token

ROUNDS = 4


async def test_patch_and_delete_of_one_user_sent_together_answer_200_or_404(
    app: Litestar, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """Finding (found by this test): turning a user off took the user's SCIM row, then their membership;
    deleting them took the two the other way round, and PostgreSQL answered one of them 503 (deadlock).
    Every change of a user now takes the organization's row first."""
    token = await scim_token(session_maker, tenant.org_id, "acme.example")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": SCIM_JSON}
    off = {"Operations": [{"op": "replace", "value": {"active": False, "displayName": "Gone"}}]}
    async with concurrent_clients(app, 2) as (patching, deleting):
        for n in range(ROUNDS):
            body = {"userName": f"raced{n}@acme.example"}
            created = await patching.post("/scim/v2/Users", json=body, headers=headers)
            url = f"/scim/v2/Users/{created.json()['id']}"
            calls = [patching.patch(url, json=off, headers=headers), deleting.delete(url, headers=headers)]
            if random.random() < 0.5:
                calls.reverse()
            answers = {answer.request.method: answer for answer in await asyncio.gather(*calls)}
            assert answers["PATCH"].status_code in (200, 404), answers["PATCH"].text
            assert answers["DELETE"].status_code in (204, 404), answers["DELETE"].text
            assert (await patching.get(url, headers=headers)).status_code in (200, 404)
