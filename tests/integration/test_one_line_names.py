"""Every name and label is one line: a line break or another control character in an organization or
project name, a token or webhook label, or a contact's name or subject is refused with 400 naming the
field, in the API, the console and the command line alike (a name travels into mail subjects)."""

from __future__ import annotations

import json

import pytest
from litestar.testing import AsyncTestClient

from app.db.models import User
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant
from tests.integration.public.servers import hearken_here, server_env

BROKEN = ["Docs\r\nBcc: victim@example.org", "Docs\nX", "Docs\x1b[31m", "Docs\x85", "Docs\u2028X", "Docs\t"]


@pytest.mark.parametrize("name", BROKEN)
async def test_the_api_refuses_a_project_name_or_webhook_label_on_two_lines(
    client: AsyncTestClient, tenant: Tenant, name: str
) -> None:
    renamed = await client.patch(
        f"/api/v1/projects/{tenant.project_id}", json={"name": name}, headers=tenant.headers
    )
    assert renamed.status_code == 400 and "name" in renamed.json()["details"]
    body = {"url": "https://hooks.example/in", "description": name}
    hook = await client.post("/api/v1/webhooks", json=body, headers=tenant.headers)
    assert hook.status_code == 400 and "description" in hook.json()["details"]
    read = await client.get(f"/api/v1/projects/{tenant.project_id}", headers=tenant.headers)
    assert read.json()["name"] == "Org A docs"


async def test_a_contact_name_or_subject_on_two_lines_is_refused(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    body = {
        "project_key": tenant.project_key,
        "name": "Ada",
        "email": "ada@example.com",
        "message": "Hello there",
    }
    headers = {"Origin": "https://site.example"}
    for field in ("name", "subject"):
        sent = await client.post(
            "/api/v1/contact/submit", json={**body, field: "Ada\r\nBcc: x@example.org"}, headers=headers
        )
        assert sent.status_code == 400 and field in sent.json()["details"]
    assert (await client.post("/api/v1/contact/submit", json=body, headers=headers)).status_code == 200


async def test_the_console_refuses_names_and_labels_on_two_lines(console: Console, owner: User) -> None:
    await console.get("/signup")
    signup = {
        "org_name": "Acme\r\nBcc: victim@example.org",
        "email": "new@acme.example",
        "password": "a long password",
    }
    refused = await console.post("/signup", signup)
    assert refused.status_code == 400 and 'id="e-org_name"' in refused.text
    assert errors_in(refused.text) == ["Must be one line without control characters"]

    await console.login(owner.email)
    await console.get("/projects")
    project = await console.post("/projects", {"name": "Docs\nX", "description": ""})
    assert project.status_code == 400 and "Must be one line without control characters" in errors_in(
        project.text
    )
    await console.get("/settings/tokens")
    token = await console.post("/settings/tokens", {"label": "ci\r\nX", "scope": "read"})
    assert token.status_code == 400 and "Must be one line without control characters" in errors_in(token.text)


def test_the_command_line_refuses_names_and_labels_on_two_lines(database_url: str) -> None:
    env = server_env(database_url)
    org = hearken_here(env, "orgs", "create", "--name", "Acme\r\nX", "--owner-email", "a@b.example",
                  "--owner-password", "long enough pw")  # fmt: skip
    assert org.returncode != 0 and "name" in org.stderr and "one line" in org.stderr
    made = hearken_here(env, "orgs", "create", "--name", "Acme", "--owner-email", "a@b.example",
                   "--owner-password", "long enough pw")  # fmt: skip
    assert made.returncode == 0, made.stderr
    org_id = json.loads(made.stdout)["id"]
    token = hearken_here(env, "tokens", "create", "--org", org_id, "--label", "ci\nX")
    assert token.returncode != 0 and "label" in token.stderr
    project = hearken_here(env, "projects", "create", "--org", org_id, "--name", "Docs\x1bX")
    assert project.returncode != 0 and "name" in project.stderr
