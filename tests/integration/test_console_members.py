"""Members: invitations shown once, accepted by new and existing accounts; roles; removal; one owner kept."""

from __future__ import annotations

import asyncio
import re

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import User
from app.db.transactions import unit_of_work
from tenants.members import Members
from tenants.scope import operator_scope
from tests.console_helpers import (
    PASSWORD,
    Console,
    add_user,
    another_browser,
    concurrent_clients,
    errors_in,
    use_memory_stores,
)
from tests.factories import Tenant

LINK = re.compile(r'<code id="invitation-link">http://127\.0\.0\.1:8000(/invitations/[A-Za-z0-9_-]+)</code>')


async def invite(console: Console, email: str, role: str) -> str:
    response = await console.post("/members/invitations", {"email": email, "role": role})
    match = LINK.search(response.text)
    assert match is not None, response.text
    return match.group(1)


async def test_invited_new_user_creates_an_account_and_joins(
    console: Console,
    owner: User,
    app_run: AsyncTestClient[Litestar],
) -> None:
    await console.login(owner.email)
    await console.get("/members")
    path = await invite(console, "new@org-a.example", "member")
    assert LINK.search((await console.get("/members")).text) is None  # shown once
    again = await console.post("/members/invitations", {"email": "two@org-a.example", "role": "member"})
    assert "This server sends no mail: send this link to two@org-a.example yourself." in again.text
    assert "new@org-a.example as member" in (await console.get("/members")).text

    async with another_browser(app_run) as other:
        guest = Console(other)
        page = await guest.get(path)
        assert "Join Org A" in page.text and "Create account and join" in page.text
        short = await guest.post(path, {"password": "short"})
        assert errors_in(short.text) == ["Must be at least 10 characters"]
        joined = await guest.post(path, {"password": "a new long password"}, follow_redirects=False)
        assert joined.headers["location"] == "/projects"
        assert "new@org-a.example · member" in (await guest.get("/projects")).text
        assert (await guest.get(path)).status_code == 404  # used


async def test_existing_account_joins_with_its_own_password(
    console: Console,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    elsewhere = await add_user(session_maker, other_tenant.org_id, "b@org-b.example", "owner")
    await console.login(owner.email)
    await console.get("/members")
    path = await invite(console, elsewhere.email, "admin")
    async with another_browser(app_run) as other:
        guest = Console(other)
        await guest.get(path)
        wrong = await guest.post(path, {"password": "not my password"})
        assert errors_in(wrong.text) == ["Is not the password of this account"]
        joined = await guest.post(path, {"password": PASSWORD}, follow_redirects=False)
        assert joined.status_code == 303
    members = (await console.get("/members")).text
    assert "b@org-b.example" in members


async def test_roles_change_and_the_last_owner_stays(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await add_user(session_maker, tenant.org_id, "m@org-a.example", "member")
    await console.login(owner.email)
    page = (await console.get("/members")).text
    ids = {
        email: mid
        for mid, email in re.findall(
            r'<label class="visually-hidden" for="role-([0-9a-f-]+)">Role of ([^<]+)</label>', page
        )
    }
    promoted = await console.htmx_post(f"/members/{ids['m@org-a.example']}/role", {"role": "admin"})
    assert re.search(r'<option value="admin" selected>', promoted.text)
    last_owner = await console.htmx_post(f"/members/{ids[owner.email]}/role", {"role": "member"})
    assert last_owner.status_code == 400
    assert "The organization must keep at least one owner" in errors_in(last_owner.text)
    cannot_leave = await console.htmx_post(f"/members/{ids[owner.email]}/remove")
    assert cannot_leave.status_code == 400


async def test_removed_member_is_signed_out_at_once(
    console: Console,
    owner: User,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    await add_user(session_maker, tenant.org_id, "m@org-a.example", "member")
    async with another_browser(app_run) as other:
        member = Console(other)
        await member.login("m@org-a.example")
        assert (await member.get("/projects")).status_code == 200
        await console.login(owner.email)
        page = (await console.get("/members")).text
        mid = re.search(r'for="role-([0-9a-f-]+)">Role of m@org-a\.example', page)
        assert mid is not None
        await console.htmx_post(f"/members/{mid.group(1)}/remove")
        assert (await member.get("/projects", follow_redirects=False)).headers["location"] == "/login"


async def test_password_guesses_through_an_invitation_are_throttled(
    console: Console,
    owner: User,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    elsewhere = await add_user(session_maker, other_tenant.org_id, "b@org-b.example", "owner")
    await console.login(owner.email)
    await console.get("/members")
    path = await invite(console, elsewhere.email, "member")
    async with another_browser(app_run) as other:
        guest = Console(other)
        await guest.get(path)
        for _ in range(5):
            assert (await guest.post(path, {"password": "a wrong guess"})).status_code == 400
        blocked = await guest.post(path, {"password": PASSWORD})
        assert blocked.status_code == 429
        assert "Too many failed attempts" in blocked.text


async def test_two_owners_demoting_each_other_at_once_keep_an_owner(
    owner: User,
    app: Litestar,
    tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    use_memory_stores(app)
    second = await add_user(session_maker, tenant.org_id, "second@org-a.example", "owner")
    async with unit_of_work(session_maker) as session:
        by_user = {
            member.user_id: member.membership_id
            for member in await Members(session, operator_scope(tenant.org_id)).list()
        }
    async with concurrent_clients(app, 2) as (first_client, second_client):
        console, other = Console(first_client), Console(second_client)
        await console.login(owner.email)
        await other.login(second.email)
        for _ in range(5):
            statuses = await asyncio.gather(
                console.post(f"/members/{by_user[second.id]}/role", {"role": "admin"}),
                other.post(f"/members/{by_user[owner.id]}/role", {"role": "admin"}),
            )
            async with unit_of_work(session_maker) as session:
                roles = [
                    member.role for member in await Members(session, operator_scope(tenant.org_id)).list()
                ]
                assert roles.count("owner") == 1, (statuses, roles)
                for membership_id in by_user.values():  # both owners again for the next round
                    await Members(session, operator_scope(tenant.org_id)).change_role(membership_id, "owner")
            # One wins; the other is refused: 400 when it would leave no owner, or 403 when the winner's
            # change reached the database before the loser's request was authorized.
            winner, loser = sorted(response.status_code for response in statuses)
            assert winner == 200 and loser in (400, 403), statuses
