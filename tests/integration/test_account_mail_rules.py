"""What account mail may prove, through a real SMTP server (aiosmtpd): a reset link dies when the
password or the address changes; confirmation mails are limited like reset mails; notifications go only
to confirmed addresses; only the mailed invitation link confirms the address it was sent to."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import OutboundEmail, User
from app.db.transactions import unit_of_work
from app.services.feedback_items import FeedbackItems
from tenants.scope import operator_scope
from tests.console_helpers import PASSWORD, Console, add_user, another_browser, errors_in
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it


NEW_PASSWORD = "a fresh passphrase here"
SHOWN = re.compile(r'<code id="invitation-link">(http://[^<]+)</code>')


async def reset_link(console: Console, inbox: Inbox, email: str) -> str:
    await console.get("/password/forgot")
    assert (await console.post("/password/forgot", {"email": email})).status_code == 200
    return urlsplit(inbox.link_to(email, "/password/reset/")).path


async def test_a_reset_link_dies_when_the_password_changes(
    console: Console, app_run: AsyncTestClient[Litestar], owner: User, inbox: Inbox
) -> None:
    async with another_browser(app_run) as stranger_browser:
        stranger = Console(stranger_browser)
        path = await reset_link(stranger, inbox, owner.email)
        await console.login(owner.email)
        await console.get("/account")
        changed = await console.post(
            "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        )
        assert changed.status_code == 200 and "Your password was changed." in changed.text
        assert (await stranger.get(path)).status_code == 404
        assert (await stranger.post(path, {"new_password": "taken over at last"})).status_code == 404


async def test_a_reset_link_mailed_to_the_old_address_dies_when_the_address_changes(
    console: Console, app_run: AsyncTestClient[Litestar], owner: User, inbox: Inbox
) -> None:
    async with another_browser(app_run) as old_mailbox_browser:
        old_mailbox = Console(old_mailbox_browser)
        path = await reset_link(old_mailbox, inbox, owner.email)
        await console.login(owner.email)
        await console.get("/account")
        moved = await console.post(
            "/account/email", {"new_email": "moved@org-a.example", "email_password": PASSWORD}
        )
        assert moved.status_code in (200, 303)
        assert (await old_mailbox.get(path)).status_code == 404
        assert (await old_mailbox.post(path, {"new_password": "taken over at last"})).status_code == 404


async def test_confirmation_mails_are_limited_like_reset_mails(console: Console, inbox: Inbox) -> None:
    await console.get("/signup")
    signup = {"org_name": "Fresh", "email": "fresh@new.example", "password": "a long password"}
    assert (await console.post("/signup", signup, follow_redirects=False)).status_code == 303
    await console.get("/projects")
    for _ in range(3):
        sent = await console.post("/account/confirmation", follow_redirects=True)
        assert sent.status_code == 200 and "We mailed you a new link" in sent.text
    refused = await console.post("/account/confirmation")
    assert refused.status_code == 429
    assert errors_in(refused.text)[0].startswith("Too many confirmation mails. Try again in")
    await inbox.wait_for(4)  # the sign-up's and three more
    assert len(inbox.messages) == 4


async def test_notifications_go_only_to_confirmed_addresses(
    client: AsyncTestClient,
    session_maker: async_sessionmaker[AsyncSession],
    tenant: Tenant,
    inbox: Inbox,
) -> None:
    await add_user(session_maker, tenant.org_id, "confirmed@org-a.example", "owner")
    unconfirmed = await add_user(session_maker, tenant.org_id, "unconfirmed@org-a.example", "admin")
    async with unit_of_work(session_maker) as session:
        await session.execute(update(User).where(User.id == unconfirmed.id).values(email_verified_at=None))
    async with unit_of_work(session_maker) as session:
        scope = operator_scope(tenant.org_id, "tests")
        await FeedbackItems(session, scope, tenant.project).create(message="The search is broken")
    (mail,) = await inbox.wait_for(1)
    assert mail["To"] == "confirmed@org-a.example"
    async with session_maker() as session:  # queued together, in the transaction of the news
        recipients = list(await session.scalars(select(OutboundEmail.recipient)))
    assert recipients == ["confirmed@org-a.example"]


async def invite(console: Console, email: str) -> str:
    await console.get("/members")
    page = (await console.post("/members/invitations", {"email": email, "role": "member"})).text
    shown = SHOWN.search(page)
    assert shown is not None, page
    return shown.group(1)


async def accepted(app: Litestar, link: str) -> None:
    """Accepted by a guest with cookies of their own, on the application the console already runs (a
    second run of it beside the first would start a second outbox dispatcher, which could take the
    confirmation mail and be stopped with the guest before sending it)."""
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40001))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver.local") as guest_client:
        guest = Console(guest_client)
        path = urlsplit(link).path
        await guest.get(path)
        answer = await guest.post(path, {"password": "my own long password"}, follow_redirects=False)
        assert answer.status_code == 303, answer.text


async def verified_at(session_maker: async_sessionmaker[AsyncSession], email: str) -> object:
    async with session_maker() as session:
        user = await session.scalar(select(User).where(User.email == email))
        assert user is not None
        return user.email_verified_at


async def test_only_the_mailed_invitation_link_confirms_the_address(
    app: Litestar,
    console: Console,
    owner: User,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    await console.login(owner.email)
    copied = await invite(console, "someone@elsewhere.example")
    mailed = inbox.link_to("someone@elsewhere.example", "/invitations/")
    assert mailed != copied and mailed.startswith(copied)
    await accepted(app, copied)  # the owner, who saw the link, could do this
    assert await verified_at(session_maker, "someone@elsewhere.example") is None
    inbox.link_to("someone@elsewhere.example", "/account/confirm/")  # the address confirms itself

    await invite(console, "reader@elsewhere.example")
    await accepted(app, inbox.link_to("reader@elsewhere.example", "/invitations/"))
    assert await verified_at(session_maker, "reader@elsewhere.example") is not None
