"""SCIM tokens on the console's Single sign-on page: shown once, revoked at once, owners only."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from tests.console_helpers import Console, add_user
from tests.factories import Tenant

SCIM_TOKEN = re.compile(r"scim_[A-Za-z0-9_-]{43}")


async def test_an_owner_creates_a_token_sees_it_once_and_revokes_it(
    console: Console, owner: User, client: AsyncTestClient[Litestar]
) -> None:
    await console.login(owner.email)
    page = await console.get("/settings/sso")
    assert "Create SCIM token" in page.text and "/scim/v2" in page.text
    created = await console.post("/settings/sso/scim-tokens")
    assert created.status_code == 200
    [token] = SCIM_TOKEN.findall(created.text)
    bearer = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/scim/v2/ServiceProviderConfig", headers=bearer)).status_code == 200

    again = await console.get("/settings/sso")
    assert token not in again.text and token[:12] in again.text
    [revoke] = re.findall(r'action="(/settings/sso/scim-tokens/[^"]+/revoke)"', again.text)
    revoked = await console.post(revoke, follow_redirects=True)
    assert "SCIM token revoked" in revoked.text
    refused = await client.get("/scim/v2/ServiceProviderConfig", headers=bearer)
    assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")


async def test_admins_cannot_create_scim_tokens(
    console: Console, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """A SCIM token can make anyone an owner, so only owners may create one."""
    admin = await add_user(session_maker, tenant.org_id, "admin@org-a.example", "admin")
    await console.login(admin.email)
    page = await console.get("/settings/sso")
    assert page.status_code == 200 and "Create SCIM token" not in page.text
    assert (await console.post("/settings/sso/scim-tokens", follow_redirects=False)).status_code == 403
