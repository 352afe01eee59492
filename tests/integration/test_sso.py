"""Single sign-on against a real OpenID Connect provider (panva's certified oidc-provider, run by Node on
127.0.0.1 once for the module): the settings page, the full sign-in through the provider, the first
sign-in creating a member, "Require SSO", and every way an ID token must be refused.

The faulty tokens (wrong audience, wrong nonce, expired, signed by a key the provider never published)
are made by the provider process itself: asked once, it signs its next ID token again with one claim
changed, using its own signing key. So each refusal comes from exactly one fault, through the real
code exchange and the real JWKS, rather than from a second key set the app could tell apart by its kid.
The console runs in process; its calls to the provider (discovery, token, JWKS) are real HTTP.

SQLite only: nothing here depends on the database beyond what the other console tests cover on both.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from httpx import Response
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AuditEntry, Membership, SsoConnection, User
from app.db.secret_box import SSO_CLIENT_SECRETS, secret_box
from app.db.transactions import unit_of_work
from tenants.members import Members
from tenants.scope import operator_scope
from tests.conftest import worker_sqlite
from tests.console_helpers import Console, add_user, another_browser
from tests.factories import Tenant
from tests.identity_provider import CLIENT_ID, CLIENT_SECRET, IdentityProvider, running_provider
from tests.sso_console import configure, errors_in, provider_url
from tests.sso_console import sign_in_through as through_provider

BASE_URL = "http://127.0.0.1:8000"  # the tests' settings' base URL
REDIRECT_URI = f"{BASE_URL}/login/sso/callback"


@pytest.fixture(scope="module")
def provider() -> Iterator[IdentityProvider]:
    with running_provider(REDIRECT_URI) as started:
        yield started


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> str:
    """The worker's SQLite database, emptied: one address for every test here, so the application is
    built once for the module rather than once per test (about half a CPU second each)."""
    return worker_sqlite(request)


async def sign_in_through(console: Console, provider: IdentityProvider, email: str) -> Response:
    return await through_provider(console, provider, email, BASE_URL)


async def signed_in_as(console: Console) -> str | None:
    page = await console.get("/projects", follow_redirects=False)
    return page.text if page.status_code == 200 else None


async def test_settings_page_saves_the_provider_with_the_secret_sealed(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    settings: Settings,
) -> None:
    await console.login(owner.email)
    page = (await console.get("/settings/sso")).text
    for label in ("Issuer URL", "Client ID", "Client secret", "Allowed email domains", "Require SSO"):
        assert f"> {label}</label>" in page or f">{label}</label>" in page
    assert REDIRECT_URI in page
    saved = await console.post(
        "/settings/sso",
        {
            "issuer": provider.issuer,
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "domains": "Acme.example, @acme.example  xn--bcher-kva.example",
        },
    )
    assert saved.status_code == 200, errors_in(saved.text)
    assert "Single sign-on saved." in saved.text
    assert "acme.example, xn--bcher-kva.example" in saved.text
    assert CLIENT_SECRET not in saved.text
    async with unit_of_work(session_maker) as session:
        connection = await session.scalar(select(SsoConnection).where(SsoConnection.org_id == tenant.org_id))
        assert connection is not None and CLIENT_SECRET not in connection.sealed_client_secret
        box = secret_box(settings.secret_key, SSO_CLIENT_SECRETS)
        assert box.open(connection.sealed_client_secret) == CLIENT_SECRET
        entries = (await session.scalars(select(AuditEntry).where(AuditEntry.target_type == "sso"))).all()
        assert entries and all(CLIENT_SECRET not in str(entry.details) for entry in entries)
    # saved again without a secret: the stored one is kept
    again = await console.post(
        "/settings/sso",
        {"issuer": provider.issuer, "client_id": CLIENT_ID, "domains": "acme.example", "require_sso": "true"},
    )
    assert "Single sign-on saved." in again.text
    async with unit_of_work(session_maker) as session:
        connection = await session.scalar(select(SsoConnection).where(SsoConnection.org_id == tenant.org_id))
        assert connection is not None and connection.require_sso
        assert secret_box(settings.secret_key, SSO_CLIENT_SECRETS).open(connection.sealed_client_secret)


async def test_settings_refuse_an_unreachable_issuer_and_another_organizations_domain(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    await configure(session_maker, settings, other_tenant, provider)
    await console.login(owner.email)
    form = {
        "issuer": "http://127.0.0.1:9/nobody",
        "client_id": "x",
        "client_secret": "y",
        "domains": "a.example",
    }
    unreachable = await console.post("/settings/sso", form)
    assert unreachable.status_code == 400
    assert errors_in(unreachable.text) == ["Cannot be used: the provider cannot be reached"]
    taken = await console.post(
        "/settings/sso", {**form, "issuer": provider.issuer, "domains": "ACME.example"}
    )
    assert taken.status_code == 400
    assert errors_in(taken.text) == ["Acme.example signs in to another organization already"]
    elsewhere = await console.post("/settings/sso", {**form, "issuer": provider.issuer + "/"})
    assert errors_in(elsewhere.text) == [
        "Cannot be used: the provider's discovery document names another issuer"
    ]
    insecure = await console.post("/settings/sso", {**form, "issuer": "http://idp.example"})
    assert errors_in(insecure.text) == ["Must be the provider's https URL (at most 500 characters)"]


async def test_only_admins_see_the_settings_and_each_organization_its_own(
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    member = await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    other_admin = await add_user(session_maker, other_tenant.org_id, "admin@org-b.example", "admin")
    await console.login(member.email)
    assert (await console.get("/settings/sso")).status_code == 403
    refused = await console.post("/settings/sso/remove", {})
    assert refused.status_code == 403
    await console.post("/logout", {})
    await console.login(other_admin.email)
    page = (await console.get("/settings/sso")).text
    assert provider.issuer not in page and "acme.example" not in page
    await console.post("/settings/sso/remove", {})  # removes B's (none), never A's
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(SsoConnection).where(SsoConnection.org_id == tenant.org_id))


async def test_first_sign_in_through_the_provider_creates_a_member(
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    callback = await sign_in_through(console, provider, "New.Person@acme.example")
    assert callback.status_code == 303 and callback.headers["location"] == "/projects"
    page = await signed_in_as(console)
    assert page is not None and "new.person@acme.example · member" in page
    async with unit_of_work(session_maker) as session:
        user = await session.scalar(select(User).where(User.email == "new.person@acme.example"))
        assert user is not None and user.email_verified_at is not None
        membership = await session.scalar(select(Membership).where(Membership.user_id == user.id))
        assert membership is not None and membership.org_id == tenant.org_id and membership.role == "member"
        added = await session.scalar(select(AuditEntry).where(AuditEntry.action == "member.created"))
        assert added is not None and added.actor == "new.person@acme.example (single sign-on)"
    # no password works for the new account
    await console.post("/logout", {})
    assert (await console.login("new.person@acme.example", "")).status_code == 400


async def test_keys_rotated_by_the_provider_are_fetched_again(
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    assert (await sign_in_through(console, provider, "first@acme.example")).status_code == 303
    await console.post("/logout", {})
    provider.rotate_keys()  # the key set the app holds no longer has the kid of the next token
    assert (await sign_in_through(console, provider, "first@acme.example")).status_code == 303
    page = await signed_in_as(console)
    assert page is not None and "first@acme.example · member" in page


TAMPERED = {
    "wrong audience": (
        {"claims": {"aud": "someone-else"}},
        "Single sign-on failed: the ID token's audience is wrong.",
    ),
    "wrong nonce": (
        {"claims": {"nonce": "another-request"}},
        "Single sign-on failed: the ID token's nonce is wrong.",
    ),
    "expired": (
        {"claims": {"exp": int(time.time()) - 600, "iat": int(time.time()) - 1200}},
        "Single sign-on failed: the ID token has expired.",
    ),
    "unpublished key": (
        {"unknown_key": True},
        "Single sign-on failed: the ID token is signed with a key the provider does not publish.",
    ),
    "address outside the domains": (
        {"claims": {"email": "someone@elsewhere.example"}},
        "someone@elsewhere.example is not at one of this organization's email domains.",
    ),
}


@pytest.mark.parametrize("fault", TAMPERED)
async def test_a_faulty_id_token_signs_nobody_in(
    fault: str,
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    tamper, message = TAMPERED[fault]
    provider.tamper_next_token(**tamper)
    callback = await sign_in_through(console, provider, "victim@acme.example")
    assert callback.status_code == 400
    assert errors_in(callback.text) == [message]
    assert await signed_in_as(console) is None
    async with unit_of_work(session_maker) as session:
        assert await session.scalar(select(User).where(User.email.like("%acme.example"))) is None


async def test_an_unverified_address_a_foreign_domain_and_an_outside_account_are_refused(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    unverified = await sign_in_through(console, provider, "unverified@acme.example")
    assert errors_in(unverified.text) == [
        "Single sign-on failed: the provider has not verified this email address."
    ]
    await console.get("/login/sso")
    foreign = await console.post("/login/sso", {"email": "someone@nowhere.example"})
    assert foreign.status_code == 400
    assert "No organization signs in with single sign-on" in foreign.text
    # an account of another organization at the domain is not taken over by this provider
    await add_user(session_maker, other_tenant.org_id, "elsewhere@acme.example", "owner")
    outside = await sign_in_through(console, provider, "elsewhere@acme.example")
    assert outside.status_code == 403 and "ask an admin to invite you" in outside.text
    assert await signed_in_as(console) is None


async def test_require_sso_refuses_a_members_password_but_not_an_owners(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    member = await add_user(session_maker, tenant.org_id, "member@acme.example", "member")
    await configure(session_maker, settings, tenant, provider, require_sso=True)
    refused = await console.login(member.email)
    assert refused.status_code == 403
    assert errors_in(refused.text) == [
        "Your organization signs in with single sign-on: use “Sign in with SSO”."
    ]
    assert await signed_in_as(console) is None
    assert (await sign_in_through(console, provider, member.email)).status_code == 303
    assert "member@acme.example · member" in (await signed_in_as(console) or "")
    await console.post("/logout", {})
    assert (await console.login(owner.email)).status_code == 303


async def test_callbacks_count_in_the_login_throttle_and_a_stale_state_is_refused(
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
) -> None:
    await configure(session_maker, settings, tenant, provider)
    await console.get("/login/sso")
    statuses = []
    for _ in range(6):
        start = await console.post("/login/sso", {"email": "guess@acme.example"})
        state = parse_qs(urlsplit(provider_url(start)).query)["state"][0]
        failed = await console.get(f"/login/sso/callback?state={state}&error=access_denied")
        statuses.append(failed.status_code)
    assert statuses == [400] * 5 + [429]
    assert "Too many failed attempts" in failed.text
    forged = await console.get("/login/sso/callback?state=forged&code=x")
    assert forged.status_code == 400 and "Start again" in forged.text


async def test_with_require_sso_an_invitation_joins_but_sends_the_member_to_the_provider(
    console: Console,
    owner: User,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    app_run: AsyncTestClient[Litestar],
) -> None:
    await configure(session_maker, settings, tenant, provider, require_sso=True)
    await console.login(owner.email)
    invited = await console.post("/members/invitations", {"email": "joiner@acme.example", "role": "member"})
    path = re.search(
        r'<code id="invitation-link">http://127\.0\.0\.1:8000(/invitations/[\w-]+)</code>', invited.text
    )
    assert path is not None
    async with another_browser(app_run) as other:
        guest = Console(other)
        await guest.get(path.group(1))
        joined = await guest.post(path.group(1), {"password": "a new long password"}, follow_redirects=False)
        assert joined.headers["location"] == "/login/sso"
        assert await signed_in_as(guest) is None
        assert (await sign_in_through(guest, provider, "joiner@acme.example")).status_code == 303
        assert "joiner@acme.example · member" in (await signed_in_as(guest) or "")


async def test_a_password_signs_in_to_the_organization_that_takes_it(
    console: Console,
    provider: IdentityProvider,
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    tenant: Tenant,
    other_tenant: Tenant,
) -> None:
    """Review finding 1, what a password session is valid for: a member of an organization that requires
    SSO (joined first) and of another that does not signs in with her password to the second, and the
    first stays closed to that session."""
    member = await add_user(session_maker, tenant.org_id, "both@acme.example", "member")
    async with unit_of_work(session_maker) as session:
        await Members(session, operator_scope(other_tenant.org_id)).add(member.id, "member")
    await configure(session_maker, settings, tenant, provider, require_sso=True)
    signed = await console.login(member.email)
    assert signed.status_code == 303, errors_in(signed.text)
    page = await signed_in_as(console)
    assert page is not None and "Org B" in page and "Org A" not in page
