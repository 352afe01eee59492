"""Console responses of every kind carry the same protections: security headers on error pages too, error
pages without a CSRF token or logout form, a CSRF token bound to the session and masked per response,
`__Host-` cookies where they are Secure, and sessions stored only for people who signed in."""

from __future__ import annotations

import asyncio
from pathlib import Path

from httpx import Response
from litestar import Litestar
from litestar.stores.file import FileStore
from litestar.stores.memory import MemoryStore
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from admin_ui.router import CSRF_COOKIE
from admin_ui.security_headers import CONSOLE_HEADERS
from admin_ui.sessions import SESSION_COOKIE, SESSION_STORE, console_stores
from app.config import Settings
from app.db.models import User
from app.main import create_app
from tests.console_helpers import PASSWORD, Console, add_user, another_browser, use_memory_stores
from tests.factories import Tenant

UNKNOWN_PROJECT = "/projects/0190b2b4-0000-7000-8000-000000000000"


def assert_console_headers(response: Response) -> None:
    for name, value in CONSOLE_HEADERS.items():
        assert response.headers.get(name) == value, (response.status_code, name)


def assert_bare_error_page(response: Response) -> None:
    assert_console_headers(response)
    assert response.headers["content-type"].startswith("text/html")
    assert "_csrf_token" not in response.text
    assert "x-csrftoken" not in response.text
    assert 'action="/logout"' not in response.text


async def test_error_pages_carry_the_headers_and_no_token(
    console: Console, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    home = await console.get("/projects")
    assert_console_headers(home)
    token = console.csrf

    not_found = await console.get(UNKNOWN_PROJECT)
    assert not_found.status_code == 404
    assert_bare_error_page(not_found)

    not_allowed = await console.client.post("/projects", data={"_csrf_token": token, "name": "X"})
    assert not_allowed.status_code == 403
    assert_bare_error_page(not_allowed)

    forged = await console.client.post("/projects", data={"name": "X"})
    assert forged.status_code == 403
    assert_bare_error_page(forged)

    fragment = await console.client.get(UNKNOWN_PROJECT, headers={"HX-Request": "true"})
    assert fragment.status_code == 404
    assert_bare_error_page(fragment)

    signed_out = await console.client.post("/logout", data={"_csrf_token": token})
    assert signed_out.status_code in (200, 303)
    redirected = await console.client.get("/projects", follow_redirects=False)
    assert redirected.status_code == 303
    assert_console_headers(redirected)


async def test_csrf_token_is_masked_per_response(console: Console, owner: User) -> None:
    """BREACH: a compressed page reflecting input beside the token must not repeat the token's bytes."""
    await console.login(owner.email)
    first = await console.get("/projects", headers={"Accept-Encoding": "br"})
    first_token = console.csrf
    second = await console.get("/projects")
    assert first.status_code == second.status_code == 200
    assert console.csrf != first_token
    assert first_token not in console.client.cookies.get(CSRF_COOKIE, "")
    for token in (first_token, console.csrf):  # every masking of the token is good
        created = await console.client.post("/projects", data={"_csrf_token": token, "name": f"P{token[:6]}"})
        assert created.status_code == 200, created.text


async def test_csrf_token_from_another_session_is_refused(
    console: Console,
    owner: User,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    app_run: AsyncTestClient[Litestar],
) -> None:
    """A cookie and token pair obtained elsewhere (an attacker's own session, planted from a sibling
    subdomain) does not pass in the victim's session, nor does the victim's pre-sign-in token."""
    await add_user(session_maker, tenant.org_id, "attacker@org-a.example", "admin")
    async with another_browser(app_run) as other:
        attacker = Console(other)
        await attacker.login("attacker@org-a.example")
        pair = (other.cookies[CSRF_COOKIE], attacker.csrf)
    await console.get("/login")
    before_sign_in = console.csrf
    await console.login(owner.email)
    for token in (before_sign_in, pair[1]):
        if token == pair[1]:
            console.client.cookies.set(CSRF_COOKIE, pair[0], domain="testserver.local")
        refused = await console.client.post("/projects", data={"_csrf_token": token, "name": "Forged"})
        assert refused.status_code == 403


async def test_anonymous_visits_store_no_session(app: Litestar, console: Console, owner: User) -> None:
    store = app.stores.get(SESSION_STORE)
    assert isinstance(store, MemoryStore)
    for _ in range(20):
        page = await console.get("/login")
        assert SESSION_COOKIE not in page.headers.get("set-cookie", "")
    console.client.cookies.set(SESSION_COOKIE, "c" * 64, domain="testserver.local")  # an id the client chose
    await console.get("/signup")
    assert not await store.exists("c" * 64)
    assert len(store._store) == 0
    await console.login(owner.email)
    assert len(store._store) == 1


async def test_expired_sessions_are_purged_from_the_file_store(settings: Settings, tmp_path: Path) -> None:
    app = create_app(settings)
    for name, store in console_stores(settings, var_dir=tmp_path).items():
        app.stores.register(name, store, allow_override=True)
    sessions = tmp_path / "console" / "sessions"
    sessions.mkdir(parents=True)
    store = app.stores.get(SESSION_STORE)
    await store.set("old", b"{}", expires_in=1)
    await store.set("live", b"{}", expires_in=3600)
    await asyncio.sleep(1.1)
    async with AsyncTestClient(app=app):  # the purge runs while the application serves
        for _ in range(50):
            if len(list(sessions.iterdir())) == 1:
                break
            await asyncio.sleep(0.05)
    assert [path.name for path in sessions.iterdir()] == [FileStore(sessions)._path_from_key("live").name]


async def test_cookies_carry_the_host_prefix_where_secure(database_url: str, owner: User) -> None:
    settings = Settings(
        embeddings="off", database_url=database_url, secret_key="k" * 32, base_url="https://console.example"
    )
    app = create_app(settings)
    use_memory_stores(app)
    async with AsyncTestClient(app=app, base_url="https://console.example") as client:
        secure = Console(client)
        await secure.get("/login")
        signed_in = await secure.post("/login", {"email": owner.email, "password": PASSWORD})
    cookies = signed_in.headers.get_list("set-cookie")
    assert {cookie.split("=", 1)[0] for cookie in cookies} >= {"__Host-hearken_session"}
    for cookie in cookies:
        assert cookie.startswith("__Host-") and "Secure" in cookie and "Path=/" in cookie
        assert "Domain" not in cookie
