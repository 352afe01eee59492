"""Helpers of the ideas tests: a project with its portal on and an identity secret, people who sign in
the ways a customer's app signs them."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from joserfc import jwt
from joserfc.jwk import OctKey
from litestar.testing import AsyncTestClient

from app.db.identity_secret import user_signature
from tests.factories import Tenant


@dataclass
class Board:
    tenant: Tenant
    secret: str

    @property
    def page(self) -> str:
        return f"/p/{self.tenant.project_key}"

    @property
    def api(self) -> str:
        return f"/api/v1/portal/{self.tenant.project_key}"

    def signed(self, user: str) -> dict[str, str]:
        return {"user": user, "sig": user_signature(self.secret, user)}

    def token(self, sub: str, email: str | None = None, name: str = "", **claims: Any) -> str:
        payload = {"sub": sub, "exp": int(time.time()) + 600, "name": name, **claims}
        if email:
            payload["email"] = email
        return jwt.encode({"alg": "HS256"}, payload, OctKey.import_key(self.secret))

    def bearer(self, sub: str, email: str | None = None, name: str = "") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(sub, email, name)}"}


async def open_board(client: AsyncTestClient, tenant: Tenant, **portal: Any) -> Board:
    url = f"/api/v1/projects/{tenant.project_id}"
    settings = {"enabled": True, "title": "Acme ideas", "auto_approve": True, **portal}
    changed = await client.patch(url, json={"portal": settings}, headers=tenant.headers)
    assert changed.status_code == 200, changed.text
    secret = await client.post(f"{url}/identity-secret", headers=tenant.headers)
    return Board(tenant, secret.json()["secret"])
