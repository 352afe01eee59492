"""Console sign-up, login, logout, sessions and CSRF, as a visitor's browser sees them."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Membership, Organization, User
from app.db.transactions import unit_of_work
from app.main import create_app
from tests.console_helpers import PASSWORD, Console, errors_in, use_memory_stores


async def test_home_sends_visitors_to_login_and_users_to_console(console: Console, owner: User) -> None:
    signed_out = await console.get("/", follow_redirects=False)
    assert signed_out.status_code == 303
    assert signed_out.headers["location"] == "/login"
    await console.login(owner.email)
    signed_in = await console.get("/", follow_redirects=False)
    assert signed_in.headers["location"] == "/projects"


async def test_signup_page_has_the_labelled_fields(console: Console) -> None:
    page = (await console.get("/signup")).text
    for label in ("Organization name", "Email", "Password"):
        assert f">{label}</label>" in page
    assert ">Create account</button>" in page


async def test_signup_creates_organization_and_owner_and_signs_in(
    console: Console, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.get("/signup")
    response = await console.post(
        "/signup",
        {"org_name": "Acme Docs", "email": "Founder@Acme.example", "password": "a long password"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/projects"
    page = await console.get("/projects")
    assert page.status_code == 200
    assert "Acme Docs" in page.text
    assert "founder@acme.example · owner" in page.text
    async with unit_of_work(session_maker) as session:
        user = await session.scalar(select(User).where(User.email == "founder@acme.example"))
        assert user is not None
        assert user.password_hash.startswith("$argon2id$")
        membership = await session.scalar(select(Membership).where(Membership.user_id == user.id))
        assert membership is not None and membership.role == "owner"
        org = await session.get(Organization, membership.org_id)
        assert org is not None and org.name == "Acme Docs"


async def test_signup_errors_are_shown_beside_the_field_and_keep_the_values(console: Console) -> None:
    await console.get("/signup")
    short = await console.post(
        "/signup", {"org_name": "Acme", "email": "a@acme.example", "password": "123456789"}
    )
    assert short.status_code == 400
    assert errors_in(short.text) == ["Must be at least 10 characters"]
    assert 'value="Acme"' in short.text and 'value="a@acme.example"' in short.text
    assert "123456789" not in short.text
    bad_email = await console.post(
        "/signup", {"org_name": "Acme", "email": "nope", "password": "a long password"}
    )
    assert errors_in(bad_email.text)[0].startswith("Must be an address")
    no_name = await console.post(
        "/signup", {"org_name": " ", "email": "a@acme.example", "password": "x" * 12}
    )
    assert 'id="e-org_name"' in no_name.text


async def test_signup_with_an_existing_email_must_log_in_instead(console: Console, owner: User) -> None:
    await console.get("/signup")
    response = await console.post(
        "/signup", {"org_name": "Hijack", "email": owner.email, "password": "whatever long"}
    )
    assert response.status_code == 400
    assert errors_in(response.text) == ["Already has an account; log in instead"]
    assert (await console.get("/projects", follow_redirects=False)).status_code == 303


async def test_login_page_labels(console: Console) -> None:
    page = (await console.get("/login")).text
    assert ">Email</label>" in page and ">Password</label>" in page and ">Log in</button>" in page


async def test_wrong_password_is_refused_without_saying_which_part(console: Console, owner: User) -> None:
    wrong = await console.login(owner.email, "not the password")
    assert wrong.status_code == 400
    assert errors_in(wrong.text) == ["That email and password do not match an account."]
    unknown = await console.login("nobody@example.com", "not the password")
    assert errors_in(unknown.text) == errors_in(wrong.text)
    assert (await console.get("/projects", follow_redirects=False)).status_code == 303


async def test_logins_are_throttled_per_email_and_client(console: Console, owner: User) -> None:
    for _ in range(5):
        assert (await console.login(owner.email, "wrong password")).status_code == 400
    blocked = await console.login(owner.email, PASSWORD)
    assert blocked.status_code == 429
    assert "Too many failed attempts" in blocked.text
    assert (await console.get("/projects", follow_redirects=False)).status_code == 303


async def test_session_cookie_is_http_only_lax_and_renewed_at_login(console: Console, owner: User) -> None:
    await console.get("/login")
    console.client.cookies.set("hearken_session", "a" * 64, domain="testserver.local")  # planted
    response = await console.login(owner.email)
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain-http development address
    assert console.client.cookies["hearken_session"] != "a" * 64
    assert (await console.get("/projects")).status_code == 200


async def test_cookies_are_secure_when_the_base_url_is_https(database_url: str) -> None:
    settings = Settings(
        embeddings="off", database_url=database_url, secret_key="k" * 32, base_url="https://console.example"
    )
    app: Litestar = create_app(settings)
    use_memory_stores(app)
    async with AsyncTestClient(app=app, base_url="https://console.example") as client:
        page = await client.get("/login")
    assert "Secure" in page.headers["set-cookie"]


async def test_logout_ends_the_session(console: Console, owner: User) -> None:
    await console.login(owner.email)
    await console.get("/projects")
    response = await console.post("/logout", follow_redirects=False)
    assert response.headers["location"] == "/login"
    assert (await console.get("/projects", follow_redirects=False)).status_code == 303


async def test_a_form_without_the_csrf_token_is_refused(
    console: Console, owner: User, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.login(owner.email)
    await console.get("/projects")
    response = await console.client.post("/projects", data={"name": "Forged"})
    assert response.status_code == 403
    assert "security token" in response.text
    forged = await console.client.post("/projects", data={"name": "Forged", "_csrf_token": "f" * 128})
    assert forged.status_code == 403
    htmx = await console.htmx_post("/projects", {"name": "Through htmx"})
    assert htmx.status_code == 200  # the header token is accepted: htmx's ClientRedirect
    page = await console.get("/projects")
    assert "Forged" not in page.text and "Through htmx" in page.text


async def test_console_pages_carry_security_headers(console: Console) -> None:
    page = await console.get("/login")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"


async def test_pages_are_html(console: Console, owner: User) -> None:
    assert (await console.get("/login")).headers["content-type"].startswith("text/html")
    await console.login(owner.email)
    assert (await console.get("/projects")).headers["content-type"].startswith("text/html")
    assert (await console.get("/projects/nope")).headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    "email", ["ann@example.com?cc=eve@evil.test", "ann&eve@example.com", "ann @example.com"]
)
async def test_signup_refuses_an_email_with_query_characters_or_spaces(console: Console, email: str) -> None:
    await console.get("/signup")
    refused = await console.post(
        "/signup", {"org_name": "Acme", "email": email, "password": PASSWORD}, follow_redirects=False
    )
    assert refused.status_code == 400
    assert errors_in(refused.text) == ["Must be an address like name@example.com (at most 320 characters)"]
