"""The OAuth endpoints that let an assistant connect to /mcp, step by step with a plain HTTP client and the
console (the whole dance in Chromium with the official client is tests/browser/test_mcp_connect.py)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import httpx
import pytest
from litestar import Litestar
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import OAuthAuthorization, OAuthClient
from app.db.transactions import unit_of_work
from app.periodic import purge_stale_oauth
from app.timestamps import utc_now
from tenants.connected_apps import UNCONNECTED_CLIENT_LIFETIME
from tenants.members import Members
from tenants.scope import operator_scope
from tests.console_helpers import Console, add_user
from tests.factories import Tenant
from tests.mcp_clients import bearer, mcp_client

REDIRECT = "http://127.0.0.1:1/callback"
FORM = "application/x-www-form-urlencoded"
JSON = {"Content-Type": "application/json"}
MEMBER = "member@org-a.example"


@dataclass
class Connection:
    client_id: str
    access_token: str
    refresh_token: str


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


async def register(http: httpx.AsyncClient, **metadata: Any) -> dict[str, Any]:
    body = {"client_name": "Test assistant", "redirect_uris": [REDIRECT], **metadata}
    response = await http.post("/register", json=body)
    assert response.status_code == 201, response.text
    registered: dict[str, Any] = response.json()
    return registered


async def consent_page(http: httpx.AsyncClient, client_id: str, challenge: str, state: str = "s1") -> str:
    response = await http.get(
        "/authorize",
        params={
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": REDIRECT,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": state,
        },
    )
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    assert location.startswith(f"{str(http.base_url).rstrip('/')}/connect/")
    return urlsplit(location).path


async def consent(
    console: Console, path: str, org_id: object, decision: str = "allow"
) -> dict[str, list[str]]:
    page = await console.get(path)
    assert page.status_code == 200, page.text
    answer = await console.post(path, {"decision": decision, "org_id": str(org_id)}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith(REDIRECT)
    return parse_qs(urlsplit(location).query)


async def connect(
    http: httpx.AsyncClient, console: Console, tenant: Tenant, **metadata: Any
) -> tuple[Connection, dict[str, Any]]:
    registered = await register(http, token_endpoint_auth_method="none", **metadata)
    verifier, challenge = pkce()
    answer = await consent(
        console, await consent_page(http, registered["client_id"], challenge), tenant.org_id
    )
    assert answer["state"] == ["s1"]
    token = await http.post(
        "/token",
        data={
            "grant_type": "authorization_code",
            "code": answer["code"][0],
            "redirect_uri": REDIRECT,
            "client_id": registered["client_id"],
            "code_verifier": verifier,
        },
    )
    assert token.status_code == 200, token.text
    body = token.json()
    return Connection(registered["client_id"], body["access_token"], body["refresh_token"]), answer


@pytest.fixture
async def member_console(
    base_url: str, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[Console]:
    await add_user(session_maker, tenant.org_id, MEMBER, "member")
    async with httpx.AsyncClient(base_url=base_url) as client:
        console = Console(client)
        await console.login(MEMBER)
        yield console


async def test_the_metadata_points_from_mcp_to_the_authorization_server(http: httpx.AsyncClient) -> None:
    base = str(http.base_url).rstrip("/")
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        resource = (await http.get(path)).json()
        assert resource["resource"] == f"{base}/mcp"
        assert [s.rstrip("/") for s in resource["authorization_servers"]] == [base]
    server = (await http.get("/.well-known/oauth-authorization-server")).json()
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert server["registration_endpoint"] == f"{base}/register"
    assert server["token_endpoint"] == f"{base}/token"
    assert set(server["grant_types_supported"]) >= {"authorization_code", "refresh_token"}


async def test_pkce_is_required_and_s256_only(http: httpx.AsyncClient) -> None:
    registered = await register(http, token_endpoint_auth_method="none")
    base = {
        "response_type": "code",
        "client_id": registered["client_id"],
        "redirect_uri": REDIRECT,
        "state": "x",
    }
    for extra in ({}, {"code_challenge": "abc", "code_challenge_method": "plain"}):
        response = await http.get("/authorize", params={**base, **extra})
        assert response.status_code == 302
        assert parse_qs(urlsplit(response.headers["location"]).query)["error"] == ["invalid_request"]


async def test_a_member_s_app_acts_with_the_member_s_access_in_one_organization(
    http: httpx.AsyncClient,
    base_url: str,
    member_console: Console,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    connection, _ = await connect(http, member_console, tenant)
    async with mcp_client(base_url, bearer(connection.access_token)) as client:
        assert "update_feedback" in {t.name for t in (await client.list_tools()).tools}  # members triage
        created = await client.call_tool(
            "create_feedback", {"project_id": tenant.project_id, "message": "From the assistant"}
        )
        assert not created.is_error
        theirs = await client.call_tool("list_feedback", {"project_id": other_tenant.project_id})
        assert theirs.is_error and theirs.structured_content["error"] in {"not_found", "forbidden"}
    history = await http.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{created.structured_content['id']}",
        headers=tenant.headers,
    )
    assert history.status_code == 200

    # the member leaves: the app's next call is refused
    async with unit_of_work(session_maker) as session:
        members = Members(session, operator_scope(tenant.org_id))
        [leaving] = [m for m in await members.list() if m.email == MEMBER]
        await members.remove(leaving.membership_id)
    statuses: list[int] = []
    with pytest.raises(Exception):  # noqa: B017
        async with mcp_client(base_url, bearer(connection.access_token), statuses) as client:
            await client.list_tools()
    assert statuses[-1] == 401


async def test_codes_are_single_use_and_bound_to_their_verifier(
    http: httpx.AsyncClient, member_console: Console, tenant: Tenant
) -> None:
    registered = await register(http, token_endpoint_auth_method="none")
    verifier, challenge = pkce()
    answer = await consent(
        member_console, await consent_page(http, registered["client_id"], challenge), tenant.org_id
    )
    exchange = {
        "grant_type": "authorization_code",
        "code": answer["code"][0],
        "redirect_uri": REDIRECT,
        "client_id": registered["client_id"],
    }
    wrong = await http.post("/token", data={**exchange, "code_verifier": pkce()[0]})
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    assert (await http.post("/token", data={**exchange, "code_verifier": verifier})).status_code == 200
    again = await http.post("/token", data={**exchange, "code_verifier": verifier})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


async def test_deny_sends_the_assistant_access_denied(
    http: httpx.AsyncClient, member_console: Console, tenant: Tenant
) -> None:
    registered = await register(http, token_endpoint_auth_method="none")
    path = await consent_page(http, registered["client_id"], pkce()[1], state="st")
    answer = await consent(member_console, path, tenant.org_id, decision="deny")
    assert answer["error"] == ["access_denied"] and answer["state"] == ["st"] and "code" not in answer
    assert (await member_console.get(path)).status_code == 404  # answered: the request is gone


async def test_a_confidential_client_s_secret_is_checked_and_not_stored(
    http: httpx.AsyncClient,
    member_console: Console,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    registered = await register(http, token_endpoint_auth_method="client_secret_post")
    secret = registered["client_secret"]
    async with session_maker() as session:
        rows = (await session.execute(text("SELECT * FROM oauth_clients"))).all()
    assert rows and all(secret not in str(row) for row in rows)
    verifier, challenge = pkce()
    answer = await consent(
        member_console, await consent_page(http, registered["client_id"], challenge), tenant.org_id
    )
    exchange = {
        "grant_type": "authorization_code",
        "code": answer["code"][0],
        "redirect_uri": REDIRECT,
        "client_id": registered["client_id"],
        "code_verifier": verifier,
    }
    assert (await http.post("/token", data={**exchange, "client_secret": "wrong"})).status_code == 401
    assert (await http.post("/token", data={**exchange, "client_secret": secret})).status_code == 200


async def test_a_revoked_token_stops_the_app(
    http: httpx.AsyncClient, base_url: str, member_console: Console, tenant: Tenant
) -> None:
    connection, _ = await connect(http, member_console, tenant)
    revoked = await http.post(
        "/revoke",
        # the mcp package's revocation form wants the field even from a public client; empty is fine
        data={"token": connection.access_token, "client_id": connection.client_id, "client_secret": ""},
    )
    assert revoked.status_code == 200, revoked.text
    statuses: list[int] = []
    with pytest.raises(Exception):  # noqa: B017
        async with mcp_client(base_url, bearer(connection.access_token), statuses) as client:
            await client.list_tools()
    assert statuses[-1] == 401
    refresh = await http.post(
        "/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": connection.refresh_token,
            "client_id": connection.client_id,
        },
    )
    assert refresh.status_code == 400


async def test_expired_requests_and_clients_never_connected_are_purged(
    app: Litestar,
    http: httpx.AsyncClient,
    member_console: Console,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    connected, _ = await connect(http, member_console, tenant)
    idle = await register(http)  # registered, never asked for consent
    waiting = await register(http, token_endpoint_auth_method="none")
    consent_path = await consent_page(http, waiting["client_id"], pkce()[1])  # asked, never answered
    fresh = await register(http)

    async def clients() -> set[str]:
        async with session_maker() as session:
            return {str(client_id) for client_id in await session.scalars(select(OAuthClient.id))}

    async def requests() -> int:
        async with session_maker() as session:
            return len(list(await session.scalars(select(OAuthAuthorization.id))))

    everyone = {connected.client_id, idle["client_id"], waiting["client_id"], fresh["client_id"]}
    await purge_stale_oauth(app)
    assert await clients() == everyone and await requests() == 1  # nothing is old yet

    async with unit_of_work(session_maker) as session:
        await session.execute(
            update(OAuthClient)
            .where(OAuthClient.id != UUID(fresh["client_id"]))
            .values(created_at=utc_now() - UNCONNECTED_CLIENT_LIFETIME - timedelta(minutes=1))
        )
    await purge_stale_oauth(app)
    # the connected one stays, and so does one whose authorization request is still running
    assert await clients() == {connected.client_id, waiting["client_id"], fresh["client_id"]}

    async with unit_of_work(session_maker) as session:
        await session.execute(update(OAuthAuthorization).values(expires_at=utc_now() - timedelta(seconds=1)))
    await purge_stale_oauth(app)
    assert await requests() == 0
    assert await clients() == {connected.client_id, fresh["client_id"]}
    assert (await member_console.get(consent_path)).status_code == 404
    async with mcp_client(str(http.base_url).rstrip("/"), bearer(connected.access_token)) as client:
        assert not (await client.call_tool("list_projects", {})).is_error


async def test_nul_characters_are_refused_by_every_oauth_endpoint(
    http: httpx.AsyncClient, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 9: the OAuth endpoints are the `mcp` package's routes mounted as ASGI apps, which the
    request checks never saw: a NUL in a registration was stored on SQLite and a 500 on PostgreSQL. JSON,
    forms and query strings are checked as on every other route: 400 naming the field, nothing stored."""
    registration = await http.post(
        "/register", json={"client_name": "Evil\x00bot", "redirect_uris": [REDIRECT]}
    )
    token = await http.post(
        "/token", data={"grant_type": "authorization_code", "code": "c\x00", "client_id": "x"}
    )
    revoke = await http.post("/revoke", content=b"token=t%00", headers={"Content-Type": FORM})
    authorize = await http.get("/authorize", params={"response_type": "code", "client_id": "a\x00"})
    deep = await http.post(
        "/register", content=b'{"client_name": ' + b"[" * 5000 + b"]" * 5000 + b"}", headers=JSON
    )
    for response, named in (
        (registration, "client_name: must not contain NUL"),
        (token, "code: must not contain NUL"),
        (revoke, "token: must not contain NUL"),
        (authorize, "client_id: must not contain NUL"),
        (deep, "body: must not nest"),
    ):
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "invalid_request"
        assert response.json()["details"].startswith(named), response.text
    async with unit_of_work(session_maker) as session:
        assert list(await session.scalars(select(OAuthClient))) == []
    assert (
        await http.post("/register", json={"client_name": "Fine", "redirect_uris": [REDIRECT]})
    ).status_code == 201
