"""A project with an identity secret, and a person's signed feedback and contact message in it, as the
widgets send them; the person's identity as query parameters, signed the way a site's backend would."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from litestar.testing import AsyncTestClient

from app.identity.person_tokens import person_token
from tests.factories import Tenant

ORIGIN = {"Origin": "https://site.example"}


def sign(secret: str, user_id: str) -> str:
    return hmac.new(secret.encode(), user_id.encode(), hashlib.sha256).hexdigest()


@dataclass
class Person:
    tenant: Tenant
    secret: str
    id: str

    def query(self, **extra: Any) -> dict[str, Any]:
        return {
            "project_key": self.tenant.project_key,
            "user": self.id,
            "sig": sign(self.secret, self.id),
            **extra,
        }

    def token(self, **claims: Any) -> str:
        return person_token(self.secret, self.id, **claims)


async def identity_secret(client: AsyncTestClient, tenant: Tenant) -> str:
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/identity-secret", headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    return str(response.json()["secret"])


async def signed_feedback(client: AsyncTestClient, person: Person, message: str) -> None:
    body = {
        "project_key": person.tenant.project_key,
        "message": message,
        "type": "Bug",
        "submitted_by": person.id,
        "user_signature": sign(person.secret, person.id),
    }
    response = await client.post("/api/v1/feedback/submit", json=body, headers=ORIGIN)
    assert response.status_code == 200, response.text


async def signed_contact(client: AsyncTestClient, person: Person, message: str, email: str) -> None:
    body = {
        "project_key": person.tenant.project_key,
        "name": "Ada",
        "email": email,
        "subject": "Invoices",
        "message": message,
        "submitted_by": person.id,
        "user_signature": sign(person.secret, person.id),
    }
    response = await client.post("/api/v1/contact/submit", json=body, headers=ORIGIN)
    assert response.status_code == 200, response.text


async def mine(client: AsyncTestClient, person: Person, **extra: Any) -> list[dict[str, Any]]:
    response = await client.get("/api/v1/conversations", params=person.query(**extra), headers=ORIGIN)
    assert response.status_code == 200, response.text
    return list(response.json()["conversations"])


def team_url(tenant: Tenant, cid: str = "") -> str:
    base = f"/api/v1/projects/{tenant.project_id}/conversations"
    return f"{base}/{cid}" if cid else base
