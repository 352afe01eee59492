"""Confirming an address by a mailed link (real SMTP server: aiosmtpd): a new sign-up sees a banner and
can neither invite nor create tokens until it follows the link; changing the address confirms it anew;
without SMTP every account counts as confirmed."""

from __future__ import annotations

from urllib.parse import urlsplit

from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.main import create_app
from tenants.accounts import find_user
from tests.console_helpers import PASSWORD, Console, errors_in, use_memory_stores
from tests.mail_server import Inbox, inbox_fixture, link_in, mailing_settings

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

BANNER = "Confirm your email address: we mailed a link to"


async def sign_up(console: Console, email: str) -> None:
    await console.get("/signup")
    form = {"org_name": "Fresh", "email": email, "password": PASSWORD}
    assert (await console.post("/signup", form, follow_redirects=False)).status_code == 303
    await console.get("/projects")


async def test_a_new_account_confirms_its_address_before_inviting_or_creating_tokens(
    console: Console, inbox: Inbox
) -> None:
    await sign_up(console, "new@fresh.example")
    page = (await console.get("/projects")).text
    assert f"{BANNER} new@fresh.example" in page
    invite = await console.post("/members/invitations", {"email": "x@fresh.example", "role": "member"})
    assert invite.status_code == 403 and "confirm your email address first" in invite.text
    token = await console.post("/settings/tokens", {"label": "ci", "scope": "read"})
    assert token.status_code == 403

    (mail,) = await inbox.wait_for(1)
    assert mail["To"] == "new@fresh.example" and mail["Subject"] == "Confirm your email address for Hearken"
    await console.post("/account/confirmation")  # "Send the link again"
    second = (await inbox.wait_for(2))[1]
    assert second["To"] == "new@fresh.example"
    confirmed = await console.get(urlsplit(link_in(second, "/account/confirm/")).path, follow_redirects=True)
    assert "Your email address is confirmed." in confirmed.text and BANNER not in confirmed.text
    assert (await console.post("/settings/tokens", {"label": "ci", "scope": "read"})).status_code == 200
    await console.get("/members")
    invite = await console.post("/members/invitations", {"email": "x@fresh.example", "role": "member"})
    assert invite.status_code == 200


async def test_changing_the_address_confirms_it_anew(
    console: Console, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await sign_up(console, "old@fresh.example")
    (first,) = await inbox.wait_for(1)
    await console.get(urlsplit(link_in(first, "/account/confirm/")).path)
    await console.get("/account")
    wrong = await console.post("/account/email", {"new_email": "new@fresh.example", "email_password": "nope"})
    assert wrong.status_code == 400 and errors_in(wrong.text) == ["Does not match your password"]
    changed = await console.post(
        "/account/email",
        {"new_email": "new@fresh.example", "email_password": PASSWORD},
        follow_redirects=True,
    )
    assert "Your email address was changed." in changed.text
    assert f"{BANNER} new@fresh.example" in changed.text
    second = (await inbox.wait_for(2))[1]
    assert second["To"] == "new@fresh.example"
    async with session_maker() as session:
        user = await find_user(session, "new@fresh.example")
        assert user is not None and user.email_verified_at is None
    assert (await console.get(urlsplit(link_in(first, "/account/confirm/")).path)).status_code == 404
    done = await console.get(urlsplit(link_in(second, "/account/confirm/")).path, follow_redirects=True)
    assert BANNER not in done.text
    assert (await console.login("new@fresh.example")).status_code == 303


async def test_a_made_up_confirmation_link_is_not_found(console: Console) -> None:
    for token in ("nonsense", "0" * 32 + ".9999999999.abc", "a.b.c"):
        assert (await console.get(f"/account/confirm/{token}")).status_code == 404


async def test_without_smtp_every_account_counts_as_confirmed(
    database_url: str, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    app = create_app(
        Settings(embeddings="off", database_url=database_url, secret_key="test-secret-key-for-the-suite")
    )
    use_memory_stores(app)
    async with AsyncTestClient(app=app) as client:
        console = Console(client)
        await sign_up(console, "solo@fresh.example")
        assert BANNER not in (await console.get("/projects")).text
        assert (await console.post("/settings/tokens", {"label": "ci", "scope": "read"})).status_code == 200
        await console.get("/account")
        await console.post("/account/email", {"new_email": "solo2@fresh.example", "email_password": PASSWORD})
        assert BANNER not in (await console.get("/projects")).text
