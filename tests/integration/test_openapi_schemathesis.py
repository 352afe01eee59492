"""The OpenAPI document the app serves is true: schemathesis generates valid and invalid requests for
every operation in it and checks that none gives a server error, every status code is declared and
every body matches its declared schema. Runs in-process (ASGI) on SQLite with a write token.

Operations added later are picked up from the document itself. Path ids named in `known_ids` are
pinned to rows that exist, so successful responses are checked too; any other id is generated.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from app.config import Settings
from app.db.config import build_db_config
from app.main import create_app
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests import databases
from tests.factories import Tenant, make_tenant

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
EXAMPLES = 30


async def _seed(settings: Settings) -> tuple[Tenant, dict[str, str]]:
    config = build_db_config(settings)
    try:
        tenant = await make_tenant(config.create_session_maker(), name="Schemathesis")
        async with config.create_session_maker()() as session:
            items = FeedbackItems(session, operator_scope(tenant.project.org_id, "tests"), tenant.project)
            item = await items.create(message="Seed", path="/seed")
            await items.update(item, {"status": "Active", "resolution_note": "Seeded", "archived": True})
            message = await ContactMessages(
                session, operator_scope(tenant.project.org_id), tenant.project
            ).create(name="Seed", email="seed@example.org", message="Seeded message")
            scope = operator_scope(tenant.org_id, "tests")
            webhooks = WebhookEndpoints(session, scope, settings)
            webhook = await webhooks.create(url="http://127.0.0.1:9/seed")
            delivery = await webhooks.send_test(webhook)
        known_ids = {
            "project_id": tenant.project_id,
            "feedback_id": str(item.id),
            "message_id": str(message.id),
            "webhook_id": str(webhook.id),
            "delivery_id": str(delivery.id),
        }
        return tenant, known_ids
    finally:
        await config.get_engine().dispose()


@pytest.fixture(scope="module")
def seeded_schema(
    sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[schemathesis.BaseSchema, Tenant, dict[str, str]]:
    url = databases.sqlite_copy(sqlite_template, tmp_path_factory.mktemp("schemathesis"))
    app_settings = Settings(database_url=url, secret_key="schemathesis-secret")
    tenant, known_ids = asyncio.run(_seed(app_settings))
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", create_app(app_settings))
    # The token is sent on every call; generating (and breaking) it would turn every case into a 401.
    schema.config.generation.update(with_security_parameters=False)
    return schema, tenant, known_ids


def test_api_conforms_to_its_openapi_document(
    seeded_schema: tuple[schemathesis.BaseSchema, Tenant, dict[str, str]],
) -> None:
    # One hypothesis run per operation and mode (schemathesis' own pytest loader does not run on pytest 9),
    # collecting every failure before reporting.
    schema, tenant, known_ids = seeded_schema
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 7
    for operation in operations:
        pinned = {p.name: known_ids[p.name] for p in operation.path_parameters if p.name in known_ids}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode, path_parameters=pinned))
            @settings(
                max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
            )
            def conforms(case: schemathesis.Case) -> None:
                case.call_and_validate(headers=tenant.headers, checks=CHECKS)

            try:
                conforms()
            except Unsatisfiable:
                continue  # nothing to break: e.g. the negative mode of an operation with only pinned ids
            except Exception as failure:  # each failure is reported, the run goes on
                failures.append(f"{operation.label} [{mode.value}]: {failure}")
    assert not failures, "\n\n".join(failures)
