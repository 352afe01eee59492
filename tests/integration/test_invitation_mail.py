"""Invitations by mail, through a real SMTP server (aiosmtpd): the mail carries the link the owner may
copy with the proof that it came by mail; "Resend" draws a new link for another 7 days and the old one
stops working; an expired invitation can be sent again; another organization's invitation is not found."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Invitation, User
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tests.console_helpers import Console, add_user, another_browser
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, link_in, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

LINK = re.compile(r'<code id="invitation-link">(http://[^<]+)</code>')


def shown_link(html: str) -> str:
    match = LINK.search(html)
    assert match is not None, html
    return match.group(1)


async def invitation_id(session_maker: async_sessionmaker[AsyncSession], email: str) -> str:
    async with unit_of_work(session_maker) as session:
        found = await session.scalar(select(Invitation.id).where(Invitation.email == email))
        return str(found)


async def test_the_invitation_is_mailed_with_the_link_shown_to_copy(
    console: Console,
    owner: User,
    inbox: Inbox,
    app_run: AsyncTestClient[Litestar],
) -> None:
    await console.login(owner.email)
    await console.get("/members")
    page = (await console.post("/members/invitations", {"email": "new@org-a.example", "role": "admin"})).text
    assert "We mailed this link to new@org-a.example" in page
    (mail,) = await inbox.wait_for(1)
    assert inbox.recipients == [["new@org-a.example"]]
    assert mail["Subject"] == "owner@org-a.example invited you to Org A on Hearken"
    assert "join Org A on Hearken as admin" in text_of(mail) and "7 days" in text_of(mail)
    link = link_in(mail, "/invitations/")
    assert link.startswith(shown_link(page) + ".")
    async with another_browser(app_run) as other:
        guest = Console(other)
        assert "Join Org A" in (await guest.get(urlsplit(link).path)).text


async def test_resending_draws_a_new_link_for_another_seven_days(
    console: Console,
    owner: User,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    await console.login(owner.email)
    await console.get("/members")
    await console.post("/members/invitations", {"email": "late@org-a.example", "role": "member"})
    (first,) = await inbox.wait_for(1)
    async with unit_of_work(session_maker) as session:  # a week passes
        await session.execute(update(Invitation).values(expires_at=utc_now() - timedelta(minutes=1)))
        await session.commit()
    listing = (await console.get("/members")).text
    assert "late@org-a.example as member, <strong>expired</strong>" in listing
    async with another_browser(app_run) as other:
        assert (await Console(other).get(urlsplit(link_in(first, "/invitations/")).path)).status_code == 404

    invitation = await invitation_id(session_maker, "late@org-a.example")
    page = (await console.post(f"/members/invitations/{invitation}/resend")).text
    second = (await inbox.wait_for(2))[1]
    assert link_in(second, "/invitations/").startswith(shown_link(page) + ".")
    assert not link_in(first, "/invitations/").startswith(shown_link(page))
    async with unit_of_work(session_maker) as session:
        record = await session.get_one(Invitation, invitation)
        assert timedelta(days=6, hours=23) < record.expires_at - utc_now() <= timedelta(days=7)
    async with another_browser(app_run) as other:
        guest = Console(other)
        assert (await guest.get(urlsplit(link_in(first, "/invitations/")).path)).status_code == 404
        new_path = urlsplit(link_in(second, "/invitations/")).path
        joined = await guest.post(new_path, {"password": "a new long password"}, follow_redirects=False)
        assert joined.headers["location"] == "/projects"


async def test_only_an_owner_of_the_same_organization_resends(
    console: Console,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    await console.login("owner@org-b.example")
    await console.get("/members")
    await console.post("/members/invitations", {"email": "b-guest@org-b.example", "role": "member"})
    theirs = await invitation_id(session_maker, "b-guest@org-b.example")
    await add_user(session_maker, tenant.org_id, "admin@org-a.example", "admin")
    await console.login("admin@org-a.example")
    assert (await console.post(f"/members/invitations/{theirs}/resend")).status_code == 403
    await console.login(owner.email)
    assert (await console.post(f"/members/invitations/{theirs}/resend")).status_code == 404
    await inbox.wait_for(1)
    assert inbox.recipients == [["b-guest@org-b.example"]]  # sent once, by its own organization
