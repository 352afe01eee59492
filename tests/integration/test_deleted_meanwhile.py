"""A change to a row that is deleted while the change runs is 404, never a server error, on every PATCH
route: the routes are read from the application, so a new PATCH route fails here until it is raced too.

Two ways to race, against a real server process (the in-process test client serves one request at a
time, so nothing it sends is concurrent): a PATCH that waits on a row another transaction is deleting
(deterministic: the delete holds the row until the PATCH is seen waiting, then commits), and PATCH and
DELETE requests sent together, round after round (on PostgreSQL a feedback change racing a purge could
deadlock on their opposite lock order)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from litestar import Litestar
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import (
    Alert,
    ChangelogEntry,
    ContactMessage,
    FeedbackItem,
    Idea,
    Project,
    Survey,
    WebhookEndpoint,
)
from app.db.transactions import unit_of_work
from app.services.contact_messages import ContactMessages
from app.services.projects import Projects
from tenants.scope import operator_scope
from tests.alert_counts import stored_alert
from tests.factories import Tenant, add_project
from tests.integration.public.servers import running_server, server_env
from tests.lock_waits import until_waiting_on_a_lock

ROUNDS = 12

# One worker runs these tests, so that one server process per database serves them all.
pytestmark = pytest.mark.xdist_group("deleted_meanwhile")

Client = httpx.AsyncClient
Maker = async_sessionmaker[AsyncSession]


@dataclass(frozen=True)
class Race:
    model: type[Any]
    body: dict[str, Any]
    make: Callable[[Client, Tenant, Maker, int], Awaitable[str]]
    """A new row to change; returns its id."""
    delete: Callable[[Client, Tenant, Maker, str], Awaitable[int]]
    """Delete it as a user would, concurrently with the PATCH; returns the status answered."""

    def path(self, template: str, tenant: Tenant, ident: str) -> str:
        project_id = tenant.project_id if self.model is not Project else ident
        ids = {
            name: ident
            for name in (
                *("feedback_id", "webhook_id", "message_id", "survey_id", "alert_id", "idea_id", "entry_id"),
            )
        }
        return template.format(project_id=project_id, **ids)


async def _new_project(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    return str((await add_project(session_maker, tenant, name=f"Raced {n}")).id)


async def _delete_project(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    """No API route deletes a project: the console's service does, in its own transaction."""
    async with unit_of_work(session_maker) as session:
        projects = Projects(session, operator_scope(tenant.org_id, "tests"))
        await projects.delete(await projects.get(ident))
    return 204


async def _new_feedback(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    created = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback",
        json={"message": f"Raced {n}"},
        headers=tenant.headers,
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _purge_feedback(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    url = f"/api/v1/projects/{tenant.project_id}/feedback/{ident}?purge=true"
    return (await client.delete(url, headers=tenant.headers)).status_code


async def _new_webhook(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    created = await client.post(
        "/api/v1/webhooks", json={"url": f"http://127.0.0.1:9/raced/{n}"}, headers=tenant.headers
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _delete_webhook(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    return (await client.delete(f"/api/v1/webhooks/{ident}", headers=tenant.headers)).status_code


async def _new_contact_message(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id, "tests")
        record = await ContactMessages(session, scope, tenant.project).create(
            name="Ada", email="ada@example.org", message=f"Raced {n}", spam=True
        )
    return str(record.id)


async def _purge_contact_message(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    url = f"/api/v1/projects/{tenant.project_id}/contact-messages/{ident}?purge=true"
    return (await client.delete(url, headers=tenant.headers)).status_code


async def _new_survey(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    created = await client.post(
        f"/api/v1/projects/{tenant.project_id}/surveys", json={"template": "nps"}, headers=tenant.headers
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _delete_survey(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    url = f"/api/v1/projects/{tenant.project_id}/surveys/{ident}"
    return (await client.delete(url, headers=tenant.headers)).status_code


async def _new_alert(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    """An open alert as a check opens it: no API route makes one."""
    async with unit_of_work(session_maker) as session:
        alert = stored_alert(tenant.project.id, path=f"/raced/{n}")
        session.add(alert)
    return str(alert.id)


async def _delete_alert(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    """No API route deletes an alert: it goes with its project (a deletion's cascade)."""
    async with unit_of_work(session_maker) as session:
        await session.execute(delete(Alert).where(Alert.id == ident))
    return 204


async def _new_idea(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    created = await client.post(
        f"/api/v1/projects/{tenant.project_id}/ideas", json={"title": f"Raced {n}"}, headers=tenant.headers
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _delete_idea(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    url = f"/api/v1/projects/{tenant.project_id}/ideas/{ident}"
    return (await client.delete(url, headers=tenant.headers)).status_code


async def _new_entry(client: Client, tenant: Tenant, session_maker: Maker, n: int) -> str:
    created = await client.post(
        f"/api/v1/projects/{tenant.project_id}/changelog",
        json={"title": f"Raced {n}"},
        headers=tenant.headers,
    )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _delete_entry(client: Client, tenant: Tenant, session_maker: Maker, ident: str) -> int:
    url = f"/api/v1/projects/{tenant.project_id}/changelog/{ident}"
    return (await client.delete(url, headers=tenant.headers)).status_code


RACES = {
    "/api/v1/projects/{project_id}": Race(Project, {"name": "Renamed"}, _new_project, _delete_project),
    "/api/v1/projects/{project_id}/feedback/{feedback_id}": Race(
        FeedbackItem, {"status": "Resolved", "type": "Bug"}, _new_feedback, _purge_feedback
    ),
    "/api/v1/projects/{project_id}/contact-messages/{message_id}": Race(
        ContactMessage, {"spam": False}, _new_contact_message, _purge_contact_message
    ),
    "/api/v1/webhooks/{webhook_id}": Race(
        WebhookEndpoint, {"description": "Changed", "enabled": False}, _new_webhook, _delete_webhook
    ),
    "/api/v1/projects/{project_id}/surveys/{survey_id}": Race(
        Survey, {"name": "Renamed", "status": "active"}, _new_survey, _delete_survey
    ),
    "/api/v1/projects/{project_id}/alerts/{alert_id}": Race(
        Alert, {"status": "acknowledged"}, _new_alert, _delete_alert
    ),
    "/api/v1/projects/{project_id}/ideas/{idea_id}": Race(
        Idea, {"status": "planned", "response": "Soon", "tags": ["raced"]}, _new_idea, _delete_idea
    ),
    "/api/v1/projects/{project_id}/changelog/{entry_id}": Race(
        ChangelogEntry, {"title": "Renamed", "body": "Changed"}, _new_entry, _delete_entry
    ),
}


SCIM_RACES = "tests/integration/scim/test_scim_races.py"
"""SCIM's PATCH routes speak SCIM with a SCIM token: they are raced there."""


def patch_routes(app: Litestar) -> set[str]:
    return {
        route.path.replace(":str}", "}")
        for route in app.routes
        if "PATCH" in getattr(route, "methods", ()) and not route.path.startswith("/scim/")
    }


def test_every_patch_route_is_raced(app: Litestar) -> None:
    assert patch_routes(app) == set(RACES)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    """A server process for each database the module's tests use, started when the first test asks:
    a start costs seconds of CPU, and emptying the database between tests does not disturb one."""
    with ExitStack() as stack:
        yield _StartedOnDemand(stack)


class _StartedOnDemand(dict[str, str]):
    def __init__(self, stack: ExitStack) -> None:
        super().__init__()
        self.stack = stack

    def __missing__(self, database_url: str) -> str:
        self[database_url] = self.stack.enter_context(running_server(server_env(database_url)))
        return self[database_url]


@pytest.fixture
def server(database_url: str, servers: dict[str, str]) -> str:
    return servers[database_url]


@pytest.fixture
async def client(server: str) -> Any:
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        yield http


async def _waiting_on_a_lock(session_maker: Maker, settings: Settings, patch: asyncio.Task[Any]) -> None:
    """Until the PATCH waits for the row (PostgreSQL says so) or has answered. SQLite cannot be asked:
    a moment is given instead (had the PATCH not reached its change by then, it finds no row: 404)."""
    if settings.is_sqlite:
        await asyncio.wait([patch], timeout=0.5)
        return
    await until_waiting_on_a_lock(session_maker, patch)


@pytest.mark.parametrize("template", sorted(RACES))
async def test_a_patch_waiting_on_a_row_being_deleted_is_404(
    template: str, client: Client, tenant: Tenant, session_maker: Maker, settings: Settings
) -> None:
    race = RACES[template]
    ident = await race.make(client, tenant, session_maker, 0)
    async with session_maker() as deleting:
        await deleting.execute(delete(race.model).where(race.model.id == ident))  # holds the row
        patch = asyncio.create_task(
            client.patch(race.path(template, tenant, ident), json=race.body, headers=tenant.headers)
        )
        await _waiting_on_a_lock(session_maker, settings, patch)
        await deleting.commit()
    answer = await patch
    assert answer.status_code == 404, answer.text
    assert answer.json()["error"] == "not_found"


@pytest.mark.parametrize("template", sorted(RACES))
async def test_patch_and_delete_sent_together_answer_200_or_404(
    template: str, client: Client, tenant: Tenant, session_maker: Maker
) -> None:
    race = RACES[template]
    idents = [await race.make(client, tenant, session_maker, n) for n in range(ROUNDS)]
    seen: set[tuple[int, int]] = set()
    for ident in idents:
        patching = client.patch(race.path(template, tenant, ident), json=race.body, headers=tenant.headers)
        deleting = race.delete(client, tenant, session_maker, ident)
        pair = [patching, deleting] if random.random() < 0.5 else [deleting, patching]
        results = await asyncio.gather(*pair)
        patched, deleted = (results[0], results[1]) if pair[0] is patching else (results[1], results[0])
        assert patched.status_code in (200, 404), patched.text
        assert deleted in (204, 404)
        seen.add((patched.status_code, deleted))
    assert all(deleted == 204 for _, deleted in seen)
