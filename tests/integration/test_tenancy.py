"""Tenancy, checked on every project-scoped and organization-scoped route the application serves (found
by walking `app.routes`, so a route added later is covered without touching this file).

- Organization B's token on organization A's project: 403, whatever the method, ids or body.
- A read token on POST / PATCH / PUT / DELETE: 403.
- A's token on A's own project with the id of a resource of B's project: 404.
- Organization-level routes with ids (/api/v1/webhooks/{webhook_id}...): A's token with ids of B's
  resources is 404, as if they did not exist.
- Every console route but signing up and in and the links mail carries sends a visitor to log in.
- Every SCIM route needs the organization's own SCIM token; another organization's never finds its users.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Conversation
from app.db.transactions import unit_of_work
from app.ingest import add_ratings, helpful_input
from app.integrations.trackers import TRACKERS
from app.schemas.rating_requests import HelpfulRatingBody
from app.services.attachments import FeedbackAttachments
from app.services.contact_messages import ContactMessages
from app.services.feedback_items import FeedbackItems
from app.services.image_cleaning import cleaned
from app.surveys.bodies import SurveyCreateBody
from app.surveys.service import Surveys
from app.webhooks.endpoints import WebhookEndpoints
from tenants.scope import operator_scope
from tests.alert_counts import stored_alert
from tests.console_helpers import Console
from tests.factories import Tenant
from tests.images import png
from tests.integration.scim.conftest import provisioned

API_PREFIX = "/api/v1/"
PROJECT_PREFIX = "/api/v1/projects/{project_id}"
WRITE_METHODS = {"POST", "PATCH", "PUT", "DELETE"}
VOCABULARIES = {"tracker": "github"}
"""Path parameters that name a kind of thing, not a resource: the walk gives each a valid word."""


@dataclass(frozen=True)
class Endpoint:
    method: str
    path_format: str
    id_parameters: tuple[str, ...]

    def url(self, project_id: str, ids: Callable[[str], str]) -> str:
        values = {name: ids(name) for name in self.id_parameters}
        return self.path_format.format(project_id=project_id, **VOCABULARIES, **values)

    def __str__(self) -> str:
        return f"{self.method} {self.path_format}"


def project_endpoints(app: Litestar) -> list[Endpoint]:
    """Every method of every route under /api/v1/projects/{project_id}, read from the app itself."""
    endpoints = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or not route.path_format.startswith(PROJECT_PREFIX):
            continue
        others = tuple(name for name in route.path_parameters if name not in {"project_id", *VOCABULARIES})
        for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
            endpoints.append(Endpoint(method, route.path_format, others))
    return endpoints


def org_endpoints(app: Litestar, *, with_ids_only: bool = True) -> list[Endpoint]:
    """Every method of every authenticated route outside the projects that names a resource by id (or,
    with with_ids_only=False, every one: /privacy/erase, /webhooks, /audit-log too)."""
    endpoints = []
    for route in app.routes:
        if (
            not isinstance(route, HTTPRoute)
            or not route.path_format.startswith(API_PREFIX)
            or route.path_format.startswith("/api/v1/projects")
            or (with_ids_only and not route.path_parameters)
        ):
            continue
        for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
            endpoint = Endpoint(method, route.path_format, tuple(route.path_parameters))
            # the webhook receivers: no token, tested below; a person's conversations: no organization
            if str(endpoint) not in PUBLIC_ROUTES | PERSON_ROUTES:
                endpoints.append(endpoint)
    return endpoints


async def call(client: AsyncTestClient, endpoint: Endpoint, url: str, headers: dict[str, str]) -> int:
    body = {"json": {}} if endpoint.method in WRITE_METHODS else {}
    response = await client.request(endpoint.method, url, headers=headers, **body)
    return response.status_code


def random_ids(_: str) -> str:
    return str(uuid4())


def test_the_walk_finds_the_project_routes(app: Litestar) -> None:
    found = {str(e) for e in project_endpoints(app)}
    assert {
        "GET /api/v1/projects/{project_id}",
        "GET /api/v1/projects/{project_id}/feedback",
        "POST /api/v1/projects/{project_id}/feedback",
        "PATCH /api/v1/projects/{project_id}/feedback/{feedback_id}",
        "DELETE /api/v1/projects/{project_id}/contact-messages/{message_id}",
        "GET /api/v1/projects/{project_id}/feedback/{feedback_id}/similar",
        "GET /api/v1/projects/{project_id}/themes",
        "POST /api/v1/projects/{project_id}/themes/refresh",
        "GET /api/v1/projects/{project_id}/churn",
        "GET /api/v1/projects/{project_id}/churn/export",
        "POST /api/v1/projects/{project_id}/feedback/{feedback_id}/rewards",
        "PUT /api/v1/projects/{project_id}/integrations/polar",
        "GET /api/v1/projects/{project_id}/alerts",
        "POST /api/v1/projects/{project_id}/alerts/check",
        "PATCH /api/v1/projects/{project_id}/alerts/{alert_id}",
        "PUT /api/v1/projects/{project_id}/alert-rules",
    } <= found


async def test_another_organizations_token_gets_403_everywhere(
    app: Litestar, client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    wrong = []
    for endpoint in project_endpoints(app):
        for project_ref in (tenant.project_id, tenant.project_key):
            for headers in (other_tenant.headers, other_tenant.read_headers):
                status = await call(client, endpoint, endpoint.url(project_ref, random_ids), headers)
                if status != 403:
                    wrong.append(f"{endpoint} ({project_ref}): {status}")
    assert wrong == []


async def test_read_tokens_get_403_on_every_write(
    app: Litestar, client: AsyncTestClient, tenant: Tenant
) -> None:
    writes = [e for e in project_endpoints(app) if e.method in WRITE_METHODS]
    assert writes
    wrong = []
    for endpoint in writes:
        status = await call(
            client, endpoint, endpoint.url(tenant.project_id, random_ids), tenant.read_headers
        )
        if status != 403:
            wrong.append(f"{endpoint}: {status}")
    assert wrong == []


async def foreign_resources(session_maker: async_sessionmaker[AsyncSession], owner: Tenant) -> dict[str, str]:
    """One resource of each kind in the other organization's project, by the path parameter naming it.

    A new kind of id in a project route makes the test below fail until it is added here.
    """
    async with unit_of_work(session_maker) as session:
        feedback = await FeedbackItems(
            session, operator_scope(owner.project.org_id, "tests"), owner.project
        ).create(message="B's feedback")
        message = await ContactMessages(session, operator_scope(owner.project.org_id), owner.project).create(
            name="B", email="b@example.org", message="B's message"
        )
        body = HelpfulRatingBody(value=True, path="/b")
        (rating,) = await add_ratings(session, [(owner.project.id, helpful_input(body))])
        (attachment,) = await FeedbackAttachments(
            session, operator_scope(owner.project.org_id, "tests"), owner.project
        ).store(feedback, [cleaned(png())], quota_bytes=10**6)
        survey = await Surveys(session, operator_scope(owner.project.org_id, "tests"), owner.project).create(
            SurveyCreateBody(template="nps")
        )
        alert = stored_alert(owner.project.id)
        session.add(alert)
        signed = await FeedbackItems(
            session, operator_scope(owner.project.org_id, "tests"), owner.project
        ).create(message="B's signed feedback", submitted_by="person_b", submitted_by_verified=True)
        conversation = await session.scalar(
            select(Conversation.id).where(Conversation.feedback_id == signed.id)
        )
        await session.commit()
    return {
        "feedback_id": str(feedback.id),
        "message_id": str(message.id),
        "rating_id": str(rating.id),
        "attachment_id": str(attachment.id),
        "survey_id": str(survey.id),
        "alert_id": str(alert.id),
        "conversation_id": str(conversation),
    }


async def test_ids_of_another_projects_resources_are_404_under_ones_own_project(
    app: Litestar,
    client: AsyncTestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    foreign = await foreign_resources(session_maker, other_tenant)
    with_ids = [e for e in project_endpoints(app) if e.id_parameters]
    unknown = {name for e in with_ids for name in e.id_parameters} - foreign.keys()
    assert not unknown, f"add a resource of another project for {sorted(unknown)} in foreign_resources()"
    wrong = []
    for endpoint in with_ids:
        status = await call(
            client, endpoint, endpoint.url(tenant.project_id, foreign.__getitem__), tenant.headers
        )
        if status != 404:
            wrong.append(f"{endpoint}: {status}")
    assert wrong == []
    other_feedback = f"/api/v1/projects/{other_tenant.project_id}/feedback/{foreign['feedback_id']}"
    still = await client.get(other_feedback, headers=other_tenant.headers)
    assert (still.status_code, still.json()["archived"]) == (200, False)


def test_the_walk_finds_the_organization_routes(app: Litestar) -> None:
    found = {str(e) for e in org_endpoints(app)}
    assert {
        "GET /api/v1/webhooks/{webhook_id}",
        "PATCH /api/v1/webhooks/{webhook_id}",
        "DELETE /api/v1/webhooks/{webhook_id}",
        "POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    } <= found


async def foreign_org_resources(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings, owner: Tenant
) -> dict[str, str]:
    """One resource of each organization-level kind of the other organization, by path parameter.

    A new kind of id in an organization route makes the test below fail until it is added here.
    """
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(owner.org_id, "tests")
        webhooks = WebhookEndpoints(session, scope, settings)
        webhook = (await webhooks.create(url="http://127.0.0.1:9/never")).endpoint
        delivery = await webhooks.send_test(webhook)
    return {"webhook_id": str(webhook.id), "delivery_id": str(delivery.id)}


async def test_ids_of_another_organizations_resources_are_404(
    app: Litestar,
    client: AsyncTestClient,
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    foreign = await foreign_org_resources(session_maker, settings, other_tenant)
    endpoints = org_endpoints(app)
    unknown = {name for e in endpoints for name in e.id_parameters} - foreign.keys()
    assert not unknown, (
        f"add a resource of another organization for {sorted(unknown)} in foreign_org_resources()"
    )
    wrong = []
    for endpoint in endpoints:
        url = endpoint.path_format.format(**foreign)
        for scope, headers in (("write", tenant.headers), ("read", tenant.read_headers)):
            status = await call(client, endpoint, url, headers)
            expected = 403 if scope == "read" and endpoint.method in WRITE_METHODS else 404
            if status != expected:
                wrong.append(f"{endpoint} ({scope} token): {status}")
    assert wrong == []
    still = await client.get(f"/api/v1/webhooks/{foreign['webhook_id']}", headers=other_tenant.headers)
    assert (still.status_code, still.json()["enabled"]) == (200, True)


async def test_read_tokens_get_403_on_every_organization_write(
    app: Litestar,
    client: AsyncTestClient,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    own = await foreign_org_resources(session_maker, settings, tenant)
    writes = [e for e in org_endpoints(app, with_ids_only=False) if e.method in WRITE_METHODS]
    assert {"POST /api/v1/privacy/erase", "POST /api/v1/webhooks"} <= {str(e) for e in writes}
    wrong = []
    for endpoint in writes:
        status = await call(client, endpoint, endpoint.path_format.format(**own), tenant.read_headers)
        if status != 403:
            wrong.append(f"{endpoint}: {status}")
    assert wrong == []


PUBLIC_ROUTES = {
    "POST /api/v1/rating/submit",
    "POST /api/v1/ratings",
    "POST /api/v1/feedback/submit",
    "POST /api/v1/contact/submit",
    "GET /api/v1/surveys/active",
    "GET /api/v1/surveys/{survey_id}/definition",
    "POST /api/v1/surveys/{survey_id}/responses/submit",
    "POST /api/v1/integrations/stripe/{integration_id}",
    "POST /api/v1/integrations/polar/{integration_id}",
    "POST /api/v1/integrations/{tracker}/{integration_id}",
}
"""The only API routes that answer without a token: the widgets' collection endpoints and the survey
widget's reads (project key, origins, rate limits; a survey of another project is 404 with this key)
and the Stripe, Polar and issue tracker webhook receivers (a signature authenticates a delivery)."""

PERSON_ROUTES = {
    "GET /api/v1/conversations/{conversation_id}",
    "POST /api/v1/conversations/{conversation_id}/messages",
}
"""Routes that answer an identified person of a project (its identity secret signs who they are), never an
organization's token: without that identity they are 401 like the rest; another person's conversation is
404 (tests/integration/conversations)."""


async def test_every_other_api_route_needs_a_token(app: Litestar, client: AsyncTestClient) -> None:
    answers = {}
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or not route.path_format.startswith("/api/v1"):
            continue
        ids = {name: str(uuid4()) for name in route.path_parameters}
        for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
            endpoint = Endpoint(method, route.path_format, ())
            body = {"json": {}} if method in WRITE_METHODS else {}
            response = await client.request(method, route.path_format.format(**ids), **body)
            answers[str(endpoint)] = response.status_code
    public = {name for name, status in answers.items() if status != 401}
    assert public == PUBLIC_ROUTES
    stripe = await client.post(f"/api/v1/integrations/stripe/{uuid4()}", content=b"{}")
    assert stripe.status_code == 404  # an unknown receiver, not a missing token
    polar = await client.post(f"/api/v1/integrations/polar/{uuid4()}", content=b"{}")
    assert polar.status_code == 404
    for tracker in TRACKERS:
        receiver = await client.post(f"/api/v1/integrations/{tracker}/{uuid4()}", content=b"{}")
        assert receiver.status_code == 404, tracker


CONSOLE_PUBLIC_ROUTES = {
    "GET /signup",
    "POST /signup",
    "GET /login",
    "POST /login",
    "GET /login/sso",
    "POST /login/sso",
    "GET /login/sso/callback",
    "GET /login/sso/saml",
    # SAML: the service provider's metadata names only this server; the assertion consumer service takes
    # only responses to requests made for its own organization (tests/integration/saml/)
    "GET /sso/saml/{org_id:uuid}/metadata",
    "POST /sso/saml/{org_id:uuid}/acs",
    "GET /invitations/{secret:str}",
    "POST /invitations/{secret:str}",
    "GET /password/forgot",
    "POST /password/forgot",
    "GET /password/reset/{secret:str}",
    "POST /password/reset/{secret:str}",
    "GET /account/confirm/{token:str}",
    "POST /login/second-step",
    "POST /login/passkey/options",
    "POST /login/passkey",
    "GET /connect/{secret:str}",
    "GET /notifications/unsubscribe/{token:str}",
    "POST /notifications/unsubscribe/{token:str}",
    "GET /notifications/confirm/{token:str}",
    "POST /notifications/confirm/{token:str}",
    "GET /survey/{token:str}",
    "POST /survey/{token:str}",
}
"""The only console routes that answer without a signed-in member: signing up and in, the links that
mail carries (each proves itself by its secret; the hosted survey page by its single-use token), and an
assistant's consent page (it sends a signed-out member to log in and back)."""


def console_routes(app: Litestar) -> list[tuple[str, HTTPRoute]]:
    """Every method of every route a console controller serves, read from the app itself."""
    found = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            if handler.fn.__module__.startswith("admin_ui."):
                found += [(method, route) for method in sorted(handler.http_methods - {"HEAD", "OPTIONS"})]
    return found


async def test_every_other_console_route_needs_a_signed_in_member(app: Litestar, console: Console) -> None:
    answers = {}
    await console.get("/login")  # a CSRF token, as a visitor's browser has one
    for method, route in console_routes(app):
        name = f"{method} {route.path}"
        url = route.path_format.format(**{param: str(uuid4()) for param in route.path_parameters})
        if method == "GET":
            response = await console.get(url, follow_redirects=False)
        else:
            response = await console.post(url, {}, follow_redirects=False)
        answers[name] = (response.status_code, response.headers.get("location"))
    assert "GET /password/forgot" in answers and "POST /account/language" in answers
    refused = {name for name, answer in answers.items() if answer == (303, "/login")}
    assert set(answers) - refused == CONSOLE_PUBLIC_ROUTES


OAUTH_DANCE = (
    "tests/browser/test_mcp_connect.py::test_an_assistant_connects_by_oauth_refreshes_and_is_disconnected"
)
MOUNTED_APPLICATIONS = {
    "/mcp": "tests/integration/mcp/test_mcp_tools.py::test_another_organization_s_ids_are_unknown",
    # OAuth: no organization data; the tokens they issue reach one organization only
    "/.well-known/oauth-authorization-server": OAUTH_DANCE,
    "/.well-known/oauth-protected-resource": OAUTH_DANCE,
    "/.well-known/oauth-protected-resource/mcp": OAUTH_DANCE,
    "/register": OAUTH_DANCE,
    "/authorize": OAUTH_DANCE,
    "/token": OAUTH_DANCE,
    "/revoke": "tests/integration/mcp/test_oauth.py::test_a_revoked_token_stops_the_app",
}
"""Routes the walks above cannot try with a plain request (they speak another protocol), each with the
test that tries another organization's ids through it."""


def test_every_mounted_application_has_its_own_tenancy_test(app: Litestar) -> None:
    mounts = {route.path for route in app.routes if not isinstance(route, HTTPRoute)}
    assert mounts == set(MOUNTED_APPLICATIONS)
    root = Path(__file__).resolve().parents[2]
    for where in MOUNTED_APPLICATIONS.values():
        module, test = where.split("::")
        assert f"def {test}(" in (root / module).read_text(), where


SCIM_PREFIX = "/scim/v2"


def scim_endpoints(app: Litestar) -> list[Endpoint]:
    """Every method of every SCIM route, read from the app itself."""
    return [
        Endpoint(method, route.path_format, tuple(route.path_parameters))
        for route in app.routes
        if isinstance(route, HTTPRoute) and route.path_format.startswith(SCIM_PREFIX)
        for method in sorted(route.methods - {"HEAD", "OPTIONS"})
    ]


async def test_every_scim_route_needs_the_organization_s_own_scim_token(
    app: Litestar,
    client: AsyncTestClient[Litestar],
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    """No token, an API token or another organization's SCIM token: 401 without one, and B's token never
    reads or changes A's users (404 by id, absent from every list)."""
    a = await provisioned(session_maker, client, tenant.org_id, "a.example")
    b = await provisioned(session_maker, client, other_tenant.org_id, "b.example")
    ada = (await a.request("POST", "/Users", a.user("ada"))).json()["id"]
    endpoints = scim_endpoints(app)
    assert {"GET /scim/v2/Users/{user_id}", "DELETE /scim/v2/Groups/{group_id}"} <= {
        str(e) for e in endpoints
    }
    ids = {"user_id": ada, "group_id": "member", "schema_id": "x", "name": "User", "rest": "Unknown"}
    for endpoint in endpoints:
        url = endpoint.path_format.format(**{name: ids[name] for name in endpoint.id_parameters})
        body = {"Operations": [{"op": "remove", "path": "displayName"}], "userName": "ada@b.example"}
        for headers in ({}, {"Authorization": f"Bearer {tenant.token}"}):
            refused = await client.request(endpoint.method, url, json=body, headers=headers)
            assert refused.status_code == 401, endpoint
            assert refused.json()["schemas"] == ["urn:ietf:params:scim:api:messages:2.0:Error"]
        answer = await client.request(endpoint.method, url, json=body, headers=b.headers)
        if "user_id" in endpoint.id_parameters:
            assert answer.status_code == 404, endpoint
        assert ada not in answer.text, endpoint
    assert (await a.request("GET", f"/Users/{ada}")).json()["active"] is True
