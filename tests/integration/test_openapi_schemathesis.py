"""The OpenAPI document the app serves is true, as schemathesis judges it against a running server
(uvicorn, as in production) on SQLite and on PostgreSQL: every check, in every phase, zero failures.

Two runs, each a test of its own (so that parallel workers run them side by side) with its own server,
freshly seeded database and budget (PHASES). The first runs the documented examples, boundary coverage
and random fuzzing; the ids of rows seeded here are pinned for the path parameters of reads, so
successful answers are checked too. The second runs the stateful phase: sequences that follow the
document's links (app/api_document.py, and those schemathesis infers from it) from a create to the reads,
changes and deletes of the row it made. Only the project is pinned there, because a pinned id replaces
the id a link passes on, so a sequence would read a seeded row that an earlier sequence had purged and be
reported as a created row that is not found. Operations added later are picked up from the document
itself. Mintlify, GitHub and Linear are a local stand-in that answers with no feedback, and accepts every
token and files every issue, so a sync, saving a tracker and filing an issue succeed without leaving the
machine.

Every check is switched on in the configuration (`checks.enabled = true`, the selection `--checks all`
makes) rather than on the command line, where it would override the two exceptions per operation:
- use_after_free (a deleted resource answers 404) is off for the operations that still reach an item
  after a plain DELETE archived it (ARCHIVE_LINKS, linked so in the document): the item stays readable,
  marked archived, and feedback can be restored by a PATCH. After `purge=true` they answer 404, which
  the document also says; the check reads neither the links nor the query, so it would report the
  archive as a failure. It holds for every other operation (a deleted webhook is gone).
- ensure_resource_availability (a row a create answered can be reached) is off for the operations whose
  body names another row (REFERENCES_IN_BODY): merging an idea into one that does not exist is 404 naming
  `into`, which the check, following a link from the create of the idea in the path, reads as the created
  idea being lost.
- positive_data_acceptance accepts a 400 to a request the schema allows for the operations with rules
  across values that no schema can state (RULES_ACROSS_VALUES).

The seed is fixed so that a run in CI is the run that passed here; HEARKEN_SCHEMATHESIS_SEED explores
others.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import chain, count
from pathlib import Path

import pytest

from app.api_document import ARCHIVE_LINKS
from app.config import Settings
from app.db.config import build_db_config
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.browser.harness import SECRET_KEY, LiveServer
from tests.factories import Tenant, make_tenant

pytestmark = pytest.mark.slow

MAX_EXAMPLES = 15
PHASES = {"examples,coverage,fuzzing": 40, "stateful": 30}
"""Each run's phases and its budget in seconds: fuzzing and stateful sequences repeat until it is spent."""
SEED = int(os.environ.get("HEARKEN_SCHEMATHESIS_SEED", "20261125"))
RULES_ACROSS_VALUES = (
    *("createWebhook", "patchWebhook", "patchProject", "patchFeedback", "listFeedback"),
    *("getHelpfulStats", "getTypedStats", "getSeries", "exportRatings", "listThemes"),
    *("submitFeedback", "enableTracker"),
    *("createSurvey", "patchSurvey", "getSurveyResults", "submitSurveyResponse"),
    *("getChurn", "exportChurn", "createReward"),
    "patchAlert",
)
"""Operations with a rule no schema can state, answered 400 to a request that breaks it: an `until`
earlier than `since`, a project id in `project_ids` that is not one of the organization's projects, an
allowed origin that is not a valid origin (the rules of host names and public suffixes), an assignee that
is not a member of the organization, a file that is not a whole PNG, JPEG or WebP image, a tracker's
settings sent to another tracker's path (the body is one of the trackers' bodies: the path says which), a
survey's texts in a language it does not have (or a rating without a scale, choices on a question of another
type), an answer that does not fit its question or a survey that takes no answers, a churn window longer than
120 months, a discount for an item that is not a cancellation from Stripe or Polar, an alert changed
without a status (another project's alert is 404 before its body is judged)."""


REFERENCES_IN_BODY = ("createMergeIdea", "createLinkFeedback")
"""Operations answered 404 when a row their body names (`into`, `idea_id`) is not the project's."""

_ISSUE_NUMBERS = count(1)


def _linear_answer(request: bytes) -> bytes:
    """Linear's GraphQL: every team exists, every issue is created with the next number."""
    if b"issueCreate" not in request:
        return b'{"data": {"team": {"id": "t", "key": "ENG", "name": "Engineering"}}}'
    number = next(_ISSUE_NUMBERS)
    issue = f'{{"id": "i{number}", "identifier": "ENG-{number}", "url": "https://linear.app/a/issue/ENG-{number}"}}'
    return f'{{"data": {{"issueCreate": {{"success": true, "issue": {issue}}}}}}}'.encode()


class _StandIn(BaseHTTPRequestHandler):
    """Mintlify with no feedback; GitHub with every repository and Linear with every team, numbering
    issues as they do."""

    def do_GET(self) -> None:
        if self.path.startswith("/repos/"):
            self._answer(200, b'{"id": 1, "full_name": "acme/widgets"}')
        else:
            self._answer(200, b'{"feedback": [], "hasMore": false}')

    def do_POST(self) -> None:
        request = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/graphql":
            self._answer(200, _linear_answer(request))
            return
        number = next(_ISSUE_NUMBERS)
        url = f"https://github.com/acme/widgets/issues/{number}"
        self._answer(201, f'{{"number": {number}, "html_url": "{url}"}}'.encode())

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def stand_in() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


async def _seed(database_url: str) -> tuple[Tenant, dict[str, str]]:
    settings = Settings(
        embeddings="off", database_url=database_url, secret_key=SECRET_KEY, webhook_allow_private=True
    )
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
            webhook = (await webhooks.create(url="http://127.0.0.1:9/seed")).endpoint
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


def _config(tenant: Tenant, known: dict[str, str], *, stateful: bool) -> str:
    """The project is pinned everywhere. The seeded rows are pinned for reads in the phases without
    sequences only: a stateful sequence works on the rows its own creates answered, and a pinned id
    would replace the id its link passes on (a seeded row that an earlier sequence purged is then 404)."""
    project = _toml({name: known[name] for name in ("project_id", "project_key")}, "\n")
    rows = {name: value for name, value in known.items() if name not in ("project_id", "project_key")}
    across = ", ".join(f'"{operation}"' for operation in RULES_ACROSS_VALUES)
    archived = ", ".join(f'"{operation}"' for operation in sorted(set(chain(*ARCHIVE_LINKS.values()))))
    referring = ", ".join(f'"{operation}"' for operation in REFERENCES_IN_BODY)
    reads = (
        "" if stateful else f'[[operations]]\ninclude-method = "GET"\nparameters = {{ {_toml(rows, ", ")} }}'
    )
    return f"""
headers = {{ "X-API-Key" = "{tenant.token}" }}
workers = 1
generation.database = "none"
checks.enabled = true

[parameters]
{project}

[[operations]]
include-operation-id = [{across}]
checks.positive_data_acceptance.expected-statuses = ["2xx", 400, 401, 403, 404]

[[operations]]
include-operation-id = [{archived}]
checks.use_after_free.enabled = false

[[operations]]
include-operation-id = [{referring}]
checks.ensure_resource_availability.enabled = false

{reads}
"""


def _toml(values: dict[str, str], separator: str) -> str:
    return separator.join(f'"{name}" = "{value}"' for name, value in values.items())


@pytest.mark.parametrize("phases", PHASES)
def test_api_conforms_to_its_openapi_document(
    database_url: str, tmp_path: Path, stand_in: str, phases: str
) -> None:
    server = LiveServer(database_url, tmp_path)
    tenant, known = asyncio.run(_seed(database_url))
    server.start(
        {
            "HEARKEN_WEBHOOK_ALLOW_PRIVATE": "1",
            "HEARKEN_RATE_LIMIT_CLIENT": "1000000/60",
            "HEARKEN_RATE_LIMIT_PROJECT": "1000000/60",
            "HEARKEN_MINTLIFY_API_URL": stand_in,
            "HEARKEN_GITHUB_API_URL": stand_in,
            "HEARKEN_LINEAR_API_URL": stand_in,
            "HEARKEN_EMBEDDINGS": "local",  # the insights routes answer for real, not 503
        }
    )
    try:
        config = _config(tenant, known, stateful="stateful" in phases)
        failure = _schemathesis(server.base_url, tmp_path, phases, config)
    finally:
        server.stop()
    assert not failure, failure


def _schemathesis(base_url: str, folder: Path, phases: str, config: str) -> str:
    """One run of schemathesis over the served document: its report if anything failed, else ''. The
    whole output is kept beside the configuration, to see what a passing run covered."""
    path = folder / f"schemathesis-{phases.replace(',', '-')}.toml"
    path.write_text(config)
    run = subprocess.run(
        [
            *(str(Path(sys.executable).with_name("st")), "--config-file", str(path), "run"),
            f"{base_url}/schema/openapi.json",
            *("--phases", phases),
            *("--max-examples", str(MAX_EXAMPLES), "--max-time", str(PHASES[phases]), "--no-color"),
            *("--seed", str(SEED)),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=PHASES[phases] + 120,
    )
    (folder / f"schemathesis-{phases.replace(',', '-')}.log").write_text(run.stdout + run.stderr)
    return "" if run.returncode == 0 else run.stdout[-20000:] + run.stderr[-3000:]
