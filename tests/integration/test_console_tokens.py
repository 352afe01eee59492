"""Settings → API tokens: created in the console, shown once, working on the API until revoked."""

from __future__ import annotations

import re

from litestar.testing import AsyncTestClient

from app.db.models import User
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant

TOKEN = re.compile(r'<code id="new-token">(oat_[A-Za-z0-9_-]{43})</code>')


async def test_token_lifecycle_create_use_revoke_delete(
    console: Console, owner: User, tenant: Tenant, client: AsyncTestClient
) -> None:
    await console.login(owner.email)
    page = (await console.get("/settings/tokens")).text
    assert ">Label</label>" in page and ">Scope</label>" in page and ">Create token</button>" in page

    created = await console.post("/settings/tokens", {"label": "CI export", "scope": "read"})
    match = TOKEN.search(created.text)
    assert match is not None
    token = match.group(1)
    assert "shown only once" in created.text
    listing = (await console.get("/settings/tokens")).text
    assert token not in listing
    assert f"<code>{token[:12]}…</code>" in listing and "CI export" in listing

    api = await client.get("/api/v1/projects", headers={"X-API-Key": token})
    assert api.status_code == 200 and api.json()["projects"][0]["id"] == tenant.project_id
    listing = (await console.get("/settings/tokens")).text
    row = re.search(rf"{token[:12]}….*?</tr>", listing, re.S)
    assert row is not None and "never" not in row.group(0) and "read" in row.group(0)

    token_id = re.search(
        rf'/settings/tokens/([0-9a-f-]+)/revoke"[^>]*hx-confirm="Revoke {token[:12]}', listing
    )
    assert token_id is not None
    revoked = await console.htmx_post(f"/settings/tokens/{token_id.group(1)}/revoke")
    assert revoked.status_code == 200 and "revoked" in revoked.text
    assert (await client.get("/api/v1/projects", headers={"X-API-Key": token})).status_code == 401

    deleted = await console.htmx_post(f"/settings/tokens/{token_id.group(1)}/delete")
    assert token[:12] not in deleted.text


async def test_token_form_errors_beside_fields(console: Console, owner: User) -> None:
    await console.login(owner.email)
    await console.get("/settings/tokens")
    bad_scope = await console.post("/settings/tokens", {"label": "x", "scope": "admin"})
    assert bad_scope.status_code == 400 and errors_in(bad_scope.text) == ["Must be read or write"]
    long_label = await console.post("/settings/tokens", {"label": "x" * 101, "scope": "write"})
    assert errors_in(long_label.text) == ["Must be at most 100 characters"]
    assert not TOKEN.search(long_label.text)
