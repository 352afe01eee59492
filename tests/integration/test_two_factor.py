"""Two-factor sign-in in the console: an authenticator app set up from the key the page shows (codes
computed here with pyotp), its codes asked after the password and never accepted twice, single-use
recovery codes, wrong codes throttled, a password asked again to turn a factor off or make new codes,
each change in the audit log and mailed, and an organization that requires a second factor sending its
members to set one up first. Passkeys are driven through Chromium in tests/browser/test_passkeys.py."""

from __future__ import annotations

import html
import re
import time

import pyotp
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import AuditEntry, Organization, OutboundEmail, Passkey, User
from app.db.transactions import unit_of_work
from tenants.password_resets import issue_reset, new_reset_secret
from tests.console_helpers import PASSWORD, Console, add_user, errors_in
from tests.factories import Tenant

SECOND_STEP = "/login/second-step"


def next_code(totp: pyotp.TOTP) -> str:
    """The code of the next 30-second step (accepted: clocks drift): the current one was used up when
    the app was set up, and a code is never accepted twice."""
    return totp.at(time.time() + totp.interval)


async def set_up_authenticator(console: Console) -> tuple[pyotp.TOTP, list[str]]:
    """As a person would: the key the page shows typed into an app, its code entered, the codes read."""
    started = await console.post("/account/authenticator", {"confirmation": PASSWORD})
    assert started.status_code == 200, started.text
    key = re.search(r'id="totp-key"[^>]*>([A-Z2-7 ]+)<', started.text)
    assert key and 'src="data:image/svg+xml;' in started.text
    totp = pyotp.TOTP(key.group(1).replace(" ", ""))
    done = await console.post("/account/authenticator/confirm", {"code": totp.now()})
    assert done.status_code == 200 and "Keep these codes somewhere safe" in done.text
    codes = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", done.text)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert "Keep these codes" not in (await console.get("/account/recovery-codes")).text  # shown once
    return totp, codes


async def password_step(console: Console, email: str) -> None:
    response = await console.login(email)
    assert response.status_code == 303 and response.headers["location"] == SECOND_STEP


async def second_step(console: Console, code: str) -> int:
    response = await console.post(SECOND_STEP, {"code": code}, follow_redirects=False)
    if response.status_code == 303:
        await console.get(response.headers["location"])
    return response.status_code


async def signed_in(console: Console) -> bool:
    return (await console.get("/projects", follow_redirects=False)).status_code == 200


async def log_out(console: Console) -> None:
    await console.post("/logout", follow_redirects=False)


async def test_codes_after_the_password_once_each_and_every_change_audited_and_mailed(
    console: Console, owner: User, tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.login(owner.email)
    page = (await console.get("/account")).text
    assert ">Set up authenticator app</button>" in page and ">Add a passkey</button>" in page
    totp, codes = await set_up_authenticator(console)
    assert "10 of 10 recovery codes left" in (await console.get("/account")).text
    await log_out(console)

    await password_step(console, owner.email)
    assert not await signed_in(console)  # the password alone opens nothing
    await console.get(SECOND_STEP)
    assert await second_step(console, "000000" if next_code(totp) != "000000" else "111111") == 400
    assert await second_step(console, codes[0].upper()) == 303  # typed in capitals: the same code
    assert await signed_in(console)
    await log_out(console)

    await password_step(console, owner.email)
    await console.get(SECOND_STEP)
    assert await second_step(console, codes[0]) == 400  # used up
    code = next_code(totp)
    assert await second_step(console, code) == 303
    await log_out(console)
    await password_step(console, owner.email)
    await console.get(SECOND_STEP)
    assert await second_step(console, code) == 400  # the same code twice: no

    async with unit_of_work(session_maker) as session:
        actions = (
            await session.scalars(
                select(AuditEntry.action).where(AuditEntry.org_id == tenant.org_id).order_by(AuditEntry.id)
            )
        ).all()
        mails = (
            await session.scalars(select(OutboundEmail.kind).where(OutboundEmail.recipient == owner.email))
        ).all()
        details = (await session.scalars(select(AuditEntry.details))).all()
    assert "account.authenticator_on" in actions and "account.recovery_code_used" in actions
    assert list(mails).count("sign_in_changed") == 2
    assert not any(code in str(details) for code in codes)


async def test_a_reset_link_still_asks_for_the_second_factor(
    console: Console, owner: User, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.login(owner.email)
    totp, _ = await set_up_authenticator(console)
    await log_out(console)
    secret = new_reset_secret()
    async with unit_of_work(session_maker) as session:
        issue_reset(session, await session.get_one(User, owner.id), secret)
        await session.commit()
    await console.get(f"/password/reset/{secret}")
    reset = await console.post(
        f"/password/reset/{secret}", {"new_password": "a fresh passphrase here"}, follow_redirects=False
    )
    assert reset.headers["location"] == SECOND_STEP and not await signed_in(console)
    await console.get(SECOND_STEP)
    assert await second_step(console, next_code(totp)) == 303 and await signed_in(console)


async def test_wrong_codes_are_throttled(console: Console, owner: User) -> None:
    await console.login(owner.email)
    totp, _ = await set_up_authenticator(console)
    await log_out(console)
    await password_step(console, owner.email)
    await console.get(SECOND_STEP)
    wrong = "123456" if next_code(totp) != "123456" else "654321"
    assert [await second_step(console, wrong) for _ in range(5)] == [400] * 5
    refused = await console.post(SECOND_STEP, {"code": next_code(totp)})
    assert refused.status_code == 429 and "Too many failed attempts" in html.unescape(refused.text)
    assert not await signed_in(console)


async def test_turning_off_and_new_codes_ask_for_the_password_again(
    console: Console, owner: User, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await console.login(owner.email)
    totp, codes = await set_up_authenticator(console)
    refused = await console.post("/account/recovery-codes", {"confirmation": "not my password"})
    assert refused.status_code == 400
    assert errors_in(refused.text) == [
        "Does not match your password or a current code from your authenticator app"
    ]
    fresh = await console.post("/account/recovery-codes", {"confirmation": next_code(totp)})
    new_codes = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", fresh.text)
    assert len(new_codes) == 10 and not set(new_codes) & set(codes)
    assert (await console.post("/account/authenticator/off", {"confirmation": ""})).status_code == 400
    assert "Turn off authenticator app" in (await console.get("/account")).text
    off = await console.post("/account/authenticator/off", {"confirmation": PASSWORD})
    assert "Your authenticator app was turned off." in off.text and ">Set up authenticator app<" in off.text
    await log_out(console)
    assert (await console.login(owner.email)).headers["location"] == "/projects"  # the password is enough
    async with unit_of_work(session_maker) as session:
        kinds = (
            await session.scalars(select(OutboundEmail.kind).where(OutboundEmail.recipient == owner.email))
        ).all()
    assert list(kinds).count("sign_in_changed") == 3  # on, new codes, off


async def test_an_organization_that_requires_it_sends_members_to_set_it_up_first(
    console: Console,
    owner: User,
    tenant: Tenant,
    other_tenant: Tenant,
    session_maker: async_sessionmaker[AsyncSession],
) -> None:
    member = await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login(member.email)
    assert (await console.post("/members/two-factor", {"require_two_factor": "on"})).status_code == 403
    await log_out(console)

    await console.login(owner.email)
    members_page = (await console.get("/members")).text
    assert "Require two-factor authentication" in members_page
    await console.post("/members/two-factor", {"require_two_factor": "on"})
    sent = await console.get("/projects", follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == "/account?done=required"
    await set_up_authenticator(console)
    assert await signed_in(console)
    await log_out(console)

    await console.login(member.email)
    for path in ("/projects", "/members", "/settings/tokens"):
        sent = await console.get(path, follow_redirects=False)
        assert sent.headers.get("location") == "/account?done=required", path
    page = (await console.get("/account?done=required")).text
    assert "Your organization requires two-factor authentication" in page
    await set_up_authenticator(console)
    assert await signed_in(console)

    async with unit_of_work(session_maker) as session:
        required = dict(
            (await session.execute(select(Organization.id, Organization.require_two_factor))).all()
        )
        entry = await session.scalar(
            select(AuditEntry).where(
                AuditEntry.org_id == tenant.org_id, AuditEntry.action == "organization.updated"
            )
        )
    assert required[tenant.org_id] is True and required[other_tenant.org_id] is False
    assert entry is not None and entry.details == {"require_two_factor": {"from": False, "to": True}}


async def test_nobody_removes_another_account_s_passkey(
    console: Console, owner: User, other_tenant: Tenant, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    stranger = await add_user(session_maker, other_tenant.org_id, "owner@org-b.example", "owner")
    async with unit_of_work(session_maker) as session:
        theirs = Passkey(
            user_id=stranger.id, credential_id="b-credential", public_key=b"\x01", name="B's key"
        )
        session.add(theirs)
        await session.commit()
    await console.login(owner.email)
    await console.post("/account/passkeys/remove", {"passkey": str(theirs.id), "confirmation": PASSWORD})
    assert "B&#39;s key" not in (await console.get("/account")).text
    async with unit_of_work(session_maker) as session:
        assert await session.get(Passkey, theirs.id) is not None
        mails = (await session.scalars(select(OutboundEmail.kind))).all()
    assert "sign_in_changed" not in mails
