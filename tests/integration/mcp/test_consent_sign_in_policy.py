"""The consent page of a connecting assistant offers, and approves, only the organizations whose sign-in
policy the member's session meets: a session another organization's identity provider signed in counts
for that organization alone, and a password session counts neither where single sign-on is required of
the member nor, without a second factor, where two-factor authentication is. Each story runs through the
real pieces: the application served on a port, the local OpenID provider (tests/identity_provider.py),
a DNS server on 127.0.0.1 answering the domain's TXT record (tests/dns_server.py), and the console driven
over HTTP as a browser would."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from uuid import UUID

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AuditEntry, ConnectedApp, OAuthAuthorization, Organization, User
from app.db.transactions import unit_of_work
from tenants.members import Members
from tenants.passwords import hash_password
from tenants.scope import operator_scope
from tests.console_helpers import PASSWORD, Console, add_user
from tests.dns_server import DnsServer, running_dns_server
from tests.factories import Tenant, make_tenant
from tests.identity_provider import CLIENT_ID, CLIENT_SECRET, IdentityProvider, running_provider
from tests.integration.mcp.test_oauth import REDIRECT, consent_page, pkce, register
from tests.integration.test_two_factor import next_code, set_up_authenticator
from tests.mcp_clients import served, served_settings
from tests.sso_console import CALLBACK_PATH, configure, errors_in, sign_in_through

ALICE = "alice@victim.example"
SERVED_BASE = served_settings("sqlite://").base_url
"""The served port is the worker's own, the same for every test: the provider learns its callback once."""


@pytest.fixture(scope="module")
def provider() -> Iterator[IdentityProvider]:
    with running_provider(SERVED_BASE + CALLBACK_PATH) as started:
        yield started


@pytest.fixture(scope="module")
def dns_server() -> Iterator[DnsServer]:
    with running_dns_server() as started:
        yield started


@pytest.fixture
def dns(dns_server: DnsServer) -> DnsServer:
    dns_server.records.clear()
    return dns_server


@pytest.fixture
def settings(database_url: str, dns_server: DnsServer) -> Settings:
    return replace(served_settings(database_url), dns_resolver=dns_server.address)


@pytest.fixture
async def base_url(app: object) -> AsyncIterator[str]:
    async with served(app) as url:  # type: ignore[arg-type]
        yield url


@pytest.fixture
async def http(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base_url) as client:
        yield client


async def browser(base_url: str) -> Console:
    return Console(httpx.AsyncClient(base_url=base_url, follow_redirects=True))


async def new_request(http: httpx.AsyncClient) -> str:
    """An assistant registers and sends its user's browser to the consent page: that page's path."""
    registered = await register(http, token_endpoint_auth_method="none")
    return await consent_page(http, registered["client_id"], pkce()[1])


def offered(page: str) -> set[str]:
    """The organizations a consent page offers: as links to choose from, or the one it asks about."""
    links = set(re.findall(r'\?org=([0-9a-f-]{36})"', page))
    asked = set(re.findall(r'name="org_id" value="([0-9a-f-]{36})"', page))
    return links | asked


async def code_issued(session_maker: async_sessionmaker[AsyncSession]) -> bool:
    """Whether any consent request was answered with a code."""
    async with session_maker() as session:
        rows = await session.scalars(select(OAuthAuthorization.code_digest))
        return any(digest is not None for digest in rows)


async def require_two_factor(session_maker: async_sessionmaker[AsyncSession], org_id: UUID) -> None:
    async with unit_of_work(session_maker) as session:
        await session.execute(
            update(Organization).where(Organization.id == org_id).values(require_two_factor=True)
        )
        await session.commit()


async def test_another_organizations_provider_cannot_connect_an_app_to_this_one(
    base_url: str,
    http: httpx.AsyncClient,
    provider: IdentityProvider,
    dns: DnsServer,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    """Review finding 1: org B's identity provider signs Alice in; she is an admin of org C too (which
    requires two-factor authentication, and she has an authenticator app). The session B's provider made
    must not connect an assistant to C: C is not offered on the consent page, a forged "allow" for C is
    refused and no code is issued. Signed in as C requires (password and code), she can."""
    org_b = await make_tenant(session_maker, name="Org B")
    org_c = await make_tenant(session_maker, name="Org C")
    b_owner = await add_user(session_maker, org_b.org_id, "owner@b.example", "owner")

    # B runs its own provider for victim.example, and proves the domain (its TXT record is published)
    b = await browser(base_url)
    await b.login(b_owner.email)
    form = {"issuer": provider.issuer, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}
    saved = await b.post("/settings/sso", {**form, "domains": "victim.example"})
    assert saved.status_code == 200, errors_in(saved.text)
    record = re.search(r"hearken-verification=[0-9a-f]{32}", saved.text)
    assert record is not None
    dns.publish("victim.example", record.group(0))
    verified = await b.post("/settings/sso/domains/verify", {"domain": "victim.example"})
    assert "Domain verified" in verified.text, errors_in(verified.text)

    # B's provider signs Alice in first: her account is made, a member of B
    alice_by_b = await browser(base_url)
    assert (await sign_in_through(alice_by_b, provider, ALICE, base_url)).status_code == 303
    async with unit_of_work(session_maker) as session:
        alice = await session.scalar(select(User).where(User.email == ALICE))
        assert alice is not None
        alice.password_hash = await hash_password(PASSWORD)  # she resets "her" password
        await session.commit()
        await Members(session, operator_scope(org_c.org_id)).add(alice.id, "admin")  # C invites her
    # her own authenticator app, set up from a password session; C requires a second factor
    alice_with_password = await browser(base_url)
    await alice_with_password.login(ALICE)
    totp, _ = await set_up_authenticator(alice_with_password)

    # B's provider signs her in again: that session counts for B alone, even where C asks no more than a
    # password of her
    again = await sign_in_through(alice_by_b, provider, ALICE, base_url)
    assert again.status_code == 303
    path = await new_request(http)
    page = await alice_by_b.get(f"{path}?org={org_c.org_id}")
    assert str(org_c.org_id) not in offered(page.text)
    forged = await alice_by_b.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert forged.status_code == 403
    # nor once C requires a second factor
    await require_two_factor(session_maker, org_c.org_id)
    page = await alice_by_b.get(f"{path}?org={org_c.org_id}")
    assert page.status_code == 200
    assert str(org_c.org_id) not in offered(page.text)
    assert "Allow Test assistant to read and change feedback of Org C?" not in page.text
    assert "Org C" in page.text and "log out and sign in as it requires" in page.text
    forged = await alice_by_b.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert forged.status_code == 403 and "Sign in to that organization first" in forged.text
    assert not await code_issued(session_maker)
    # for B itself, its provider's session may connect an app
    mine = await alice_by_b.get(path)
    assert offered(mine.text) == {str(org_b.org_id)}

    # signed in as C requires (her password, then her code), C is offered and the app connects
    alice_for_c = await browser(base_url)
    login = await alice_for_c.login(ALICE)
    assert login.headers["location"] == "/login/second-step"
    await alice_for_c.post("/login/second-step", {"code": next_code(totp)})
    page = await alice_for_c.get(f"{path}?org={org_c.org_id}")
    assert "Allow Test assistant to read and change feedback of Org C?" in page.text
    allowed = await alice_for_c.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert allowed.status_code == 303 and allowed.headers["location"].startswith(REDIRECT + "?code=")
    for console in (b, alice_by_b, alice_with_password, alice_for_c):
        await console.client.aclose()


async def test_a_password_session_cannot_connect_an_app_where_sso_is_required(
    base_url: str,
    http: httpx.AsyncClient,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
) -> None:
    """Review finding 1: "Require SSO" of org C holds on the consent page too. Alice, an admin of C, signs
    in with her password (to org B, which allows it): C is not offered, and a forged "allow" is refused."""
    org_b = await make_tenant(session_maker, name="Org B")
    org_c = await make_tenant(session_maker, name="Org C")
    await configure(session_maker, settings, org_c, provider, domain="c.example", require_sso=True)
    alice = await add_user(session_maker, org_b.org_id, ALICE, "member")
    async with unit_of_work(session_maker) as session:
        await Members(session, operator_scope(org_c.org_id)).add(alice.id, "admin")
    console = await browser(base_url)
    assert (await console.login(ALICE)).status_code == 303
    path = await new_request(http)
    page = await console.get(f"{path}?org={org_c.org_id}")
    assert offered(page.text) == {str(org_b.org_id)}
    forged = await console.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert forged.status_code == 403
    assert not await code_issued(session_maker)
    await console.client.aclose()


async def test_a_session_without_a_second_factor_cannot_connect_an_app_where_one_is_required(
    base_url: str, http: httpx.AsyncClient, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 2: a member without a second factor signs in with her password to org A, and must
    not approve an app for org C, which requires two-factor authentication: C is not offered, a forged
    "allow" is refused; A, which requires nothing more, still works."""
    org_a = await make_tenant(session_maker, name="Org A")
    org_c = await make_tenant(session_maker, name="Org C")
    member = await add_user(session_maker, org_a.org_id, "member@a.example", "member")
    async with unit_of_work(session_maker) as session:
        await Members(session, operator_scope(org_c.org_id)).add(member.id, "member")
    await require_two_factor(session_maker, org_c.org_id)
    console = await browser(base_url)
    assert (await console.login(member.email)).status_code == 303
    path = await new_request(http)
    page = await console.get(f"{path}?org={org_c.org_id}")
    assert str(org_c.org_id) not in offered(page.text)
    forged = await console.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert forged.status_code == 403
    assert not await code_issued(session_maker)
    allowed = await console.post(
        path, {"decision": "allow", "org_id": str(org_a.org_id)}, follow_redirects=False
    )
    assert allowed.status_code == 303 and "code=" in allowed.headers["location"]
    await console.client.aclose()


async def test_connected_app_audit_entries_name_the_member(
    base_url: str, http: httpx.AsyncClient, session_maker: async_sessionmaker[AsyncSession], tenant: Tenant
) -> None:
    """Review finding 11: the entries of a connected app's connection and of its own revocation name the
    member who consented (through the app), not "system"."""
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    console = await browser(base_url)
    await console.login("member@org-a.example")
    registered = await register(http, token_endpoint_auth_method="none")
    verifier, challenge = pkce()
    path = await consent_page(http, registered["client_id"], challenge)
    await console.get(path)
    answer = await console.post(
        path, {"decision": "allow", "org_id": str(tenant.org_id)}, follow_redirects=False
    )
    code = re.search(r"code=([^&]+)", answer.headers["location"])
    assert code is not None
    token = await http.post(
        "/token",
        data={
            "grant_type": "authorization_code",
            "code": code.group(1),
            "redirect_uri": REDIRECT,
            "client_id": registered["client_id"],
            "code_verifier": verifier,
        },
    )
    assert token.status_code == 200, token.text
    revoked = await http.post(
        "/revoke",
        data={
            "token": token.json()["refresh_token"],
            "client_id": registered["client_id"],
            "client_secret": "",
        },
    )
    assert revoked.status_code == 200, revoked.text
    async with session_maker() as session:
        app = await session.scalar(select(ConnectedApp))
        assert app is not None and app.revoked_at is not None
        entries = (
            await session.scalars(
                select(AuditEntry)
                .where(AuditEntry.target_type == "connected_app")
                .order_by(AuditEntry.created_at)
            )
        ).all()
    assert [(e.action, e.actor) for e in entries] == [
        ("connected_app.created", "member@org-a.example via Test assistant"),
        ("connected_app.revoked", "member@org-a.example via Test assistant"),
    ]
    await console.client.aclose()


async def test_a_second_factor_set_up_in_the_session_counts_for_it(
    base_url: str, http: httpx.AsyncClient, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    """Review finding 2, the way through: an organization requiring two-factor authentication sends a
    member without a factor to set one up; once they have (its code proven), the same session may connect
    an app to it."""
    org_c = await make_tenant(session_maker, name="Org C")
    member = await add_user(session_maker, org_c.org_id, "member@c.example", "member")
    await require_two_factor(session_maker, org_c.org_id)
    console = await browser(base_url)
    await console.login(member.email)
    path = await new_request(http)
    assert offered((await console.get(path)).text) == set()
    await set_up_authenticator(console)
    page = await console.get(path)
    assert "Allow Test assistant to read and change feedback of Org C?" in page.text
    allowed = await console.post(
        path, {"decision": "allow", "org_id": str(org_c.org_id)}, follow_redirects=False
    )
    assert allowed.status_code == 303 and "code=" in allowed.headers["location"]
    await console.client.aclose()
