"""The OpenAPI document the app serves is true, as schemathesis judges it against a running server
(uvicorn, as in production) on SQLite and on PostgreSQL: every check in the documented examples, boundary
coverage and random fuzzing, zero failures. The stateful phase is not run here: its sequences reach a
pinned seeded row after a linked purge, or a patch after an archiving delete, and its resource checks then
report what this API does on purpose (a DELETE archives) as failures, differently from run to run.

Operations added later are picked up from the document itself. Ids of rows seeded here are handed to
schemathesis for path parameters of the same name, so successful answers are checked too. Mintlify is a
local stand-in that answers with no feedback, so a sync succeeds without leaving the machine.

Two kinds of rule cannot be checked the way schemathesis assumes. DELETE on feedback, contact messages
and ratings archives (the item stays readable, marked archived, and can be restored), so the check that
a deleted resource answers 404 is left out (the setting holds for the whole run). And a few operations
have rules across values that no schema can state (RULES_ACROSS_VALUES): for those, a 400 to a request
the schema allows is accepted. The seed is fixed so that a run in CI is the run that passed here; change
SEED to explore further.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from app.config import Settings
from app.db.config import build_db_config
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.browser.harness import SECRET_KEY, LiveServer
from tests.factories import Tenant, make_tenant

MAX_EXAMPLES = 15
MAX_SECONDS = 75
SEED = 20261125
"""The whole run's budget: fuzzing and stateful sequences repeat until it is spent."""
RULES_ACROSS_VALUES = (
    *("createWebhook", "patchWebhook", "patchProject", "patchFeedback"),
    *("getHelpfulStats", "getTypedStats", "getSeries", "exportRatings"),
)
"""Operations with a rule no schema can state, answered 400 to a request that breaks it: an `until`
earlier than `since`, a project id in `project_ids` that is not one of the organization's projects, an
allowed origin that is not a valid origin (the rules of host names and public suffixes), an assignee that
is not a member of the organization."""


class _EmptyMintlify(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"feedback": [], "hasMore": false}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def mintlify() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmptyMintlify)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


async def _seed(database_url: str) -> tuple[Tenant, dict[str, str]]:
    settings = Settings(database_url=database_url, secret_key=SECRET_KEY, webhook_allow_private=True)
    config = build_db_config(settings)
    try:
        tenant = await make_tenant(config.create_session_maker(), name="Schemathesis")
        async with unit_of_work(config.create_session_maker()) as session:
            items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
            item = await items.create(message="Seed", path="/seed")
            await items.update(item, {"status": "Active", "resolution_note": "Seeded"})
            message = await ContactMessages(
                session, operator_scope(tenant.project.org_id), tenant.project
            ).create(name="Seed", email="seed@example.org", message="Seeded message")
            scope = operator_scope(tenant.org_id, "tests")
            webhooks = WebhookEndpoints(session, scope, settings)
            webhook = await webhooks.create(url="http://127.0.0.1:9/seed")
            delivery = await webhooks.send_test(webhook)
        return tenant, {
            "project_id": tenant.project_id,
            "project_key": tenant.project_key,
            "feedback_id": str(item.id),
            "message_id": str(message.id),
            "webhook_id": str(webhook.id),
            "delivery_id": str(delivery.id),
        }
    finally:
        await config.get_engine().dispose()


def _config(tenant: Tenant, known: dict[str, str]) -> str:
    """The project is pinned everywhere; the seeded rows only where they are read, so that a stateful
    sequence's own ids (from its create) are used for its changes and deletes."""
    project = {name: known.pop(name) for name in ("project_id", "project_key")}
    across = ", ".join(f'"{operation}"' for operation in RULES_ACROSS_VALUES)
    pinned = _toml(project, "\n")
    return f"""
headers = {{ "X-API-Key" = "{tenant.token}" }}
workers = 1
generation.database = "none"

[parameters]
{pinned}

[checks]
use_after_free.enabled = false

[[operations]]
include-operation-id = [{across}]
checks.positive_data_acceptance.expected-statuses = ["2xx", 400, 401, 403, 404]

[[operations]]
include-method = "GET"
parameters = {{ {_toml(known, ", ")} }}
"""


def _toml(values: dict[str, str], separator: str) -> str:
    return separator.join(f'"{name}" = "{value}"' for name, value in values.items())


def test_api_conforms_to_its_openapi_document(database_url: str, tmp_path: Path, mintlify: str) -> None:
    server = LiveServer(database_url, tmp_path)
    tenant, known = asyncio.run(_seed(database_url))
    server.start(
        {
            "HEARKEN_WEBHOOK_ALLOW_PRIVATE": "1",
            "HEARKEN_RATE_LIMIT_CLIENT": "1000000/60",
            "HEARKEN_RATE_LIMIT_PROJECT": "1000000/60",
            "HEARKEN_MINTLIFY_API_URL": mintlify,
        }
    )
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config(tenant, known))
    try:
        run = subprocess.run(
            [
                *(str(Path(sys.executable).with_name("st")), "--config-file", str(config), "run"),
                f"{server.base_url}/schema/openapi.json",
                *("--checks", "all", "--phases", "examples,coverage,fuzzing"),
                *("--max-examples", str(MAX_EXAMPLES), "--max-time", str(MAX_SECONDS), "--no-color"),
                *("--seed", str(SEED)),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=MAX_SECONDS + 120,
        )
    finally:
        server.stop()
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-3000:]
