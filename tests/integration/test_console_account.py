"""Your account in the console: "Change password" and "Log out other sessions" end every other session
and keep this one signed in."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from app.db.transactions import unit_of_work
from tenants.accounts import find_user
from tests.console_helpers import PASSWORD, Console, another_browser, errors_in

NEW_PASSWORD = "a brand new passphrase"


async def still_signed_in(console: Console) -> bool:
    return (await console.get("/projects", follow_redirects=False)).status_code == 200


async def test_the_account_page_offers_both(console: Console, owner: User) -> None:
    await console.login(owner.email)
    page = (await console.get("/account")).text
    assert ">Change password</button>" in page and ">Log out other sessions</button>" in page
    assert 'href="/account"' in (await console.get("/projects")).text


async def test_change_password_ends_other_sessions_and_keeps_this_one(
    app_run: AsyncTestClient[Litestar], console: Console, owner: User
) -> None:
    await console.login(owner.email)
    async with another_browser(app_run) as browser:
        other = Console(browser)
        assert (await other.login(owner.email)).status_code == 303
        wrong = await console.post(
            "/account/password", {"current_password": "not my password", "new_password": NEW_PASSWORD}
        )
        assert wrong.status_code == 400
        assert errors_in(wrong.text) == ["Does not match your password"]
        assert await still_signed_in(other)
        changed = await console.post(
            "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        )
        assert changed.status_code == 200 and "Your password was changed." in changed.text  # after a redirect
        assert await still_signed_in(console)
        assert not await still_signed_in(other)
        assert (await other.login(owner.email, PASSWORD)).status_code == 400
        assert (await other.login(owner.email, NEW_PASSWORD)).status_code == 303


async def test_log_out_other_sessions(
    app_run: AsyncTestClient[Litestar], console: Console, owner: User
) -> None:
    await console.login(owner.email)
    async with another_browser(app_run) as browser:
        other = Console(browser)
        assert (await other.login(owner.email)).status_code == 303
        done = await console.post("/account/sessions", {"password": PASSWORD})
        assert done.status_code == 200 and "Every other session was logged out." in done.text
        assert await still_signed_in(console)
        assert not await still_signed_in(other)
        assert (await other.login(owner.email, PASSWORD)).status_code == 303  # the password is unchanged


async def test_mail_language_follows_the_browser_at_sign_up_and_the_account_page_after(
    console: Console, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.get("/signup")
    signup = {"org_name": "Bolag", "email": "sven@bolag.example", "password": PASSWORD}
    headers = {"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"}
    assert (await console.post("/signup", signup, headers=headers, follow_redirects=False)).status_code == 303
    assert await language_of(session_maker, "sven@bolag.example") == "sv"
    page = (await console.get("/account")).text
    assert '<option value="sv" selected>Svenska</option>' in page
    saved = await console.post("/account/language", {"language": "de"}, follow_redirects=True)
    assert "Your mail will be written in the language you chose." in saved.text
    assert await language_of(session_maker, "sven@bolag.example") == "de"
    refused = await console.post("/account/language", {"language": "fr"})
    assert refused.status_code == 400 and "Must be one of en, de, sv" in errors_in(refused.text)
    assert await language_of(session_maker, "sven@bolag.example") == "de"


async def language_of(session_maker: async_sessionmaker[AsyncSession], email: str) -> str:
    async with unit_of_work(session_maker) as session:
        user = await find_user(session, email)
        assert user is not None
        return user.language
