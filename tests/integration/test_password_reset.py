"""Forgot password: a link mailed through a real SMTP server (aiosmtpd), good once for 60 minutes, that
ends every other session; the same answer for addresses with and without an account; limits per address
and per client."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from urllib.parse import urlsplit

from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import PasswordReset, User
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tests.console_helpers import PASSWORD, Console, another_browser, errors_in
from tests.mail_server import Inbox, inbox_fixture, link_in, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]  # fixtures: the mail server and settings that use it

NEW_PASSWORD = "a fresh passphrase here"
SENT = "If an account uses that email, a link to set a new password is on its way."


async def ask_for_link(console: Console, email: str, **kwargs: object) -> str:
    await console.get("/password/forgot")
    response = await console.post("/password/forgot", {"email": email}, **kwargs)  # type: ignore[arg-type]
    return f"{response.status_code} {without_csrf(response.text)}"


def without_csrf(html: str) -> str:
    """The page less its CSRF tokens (masked anew in every answer)."""
    return re.sub(r'name="_csrf_token" value="[^"]+"|"x-csrftoken": "[^"]+"', "TOKEN", html)


async def test_the_login_page_leads_to_the_form(console: Console) -> None:
    login = (await console.get("/login")).text
    assert '<a href="/password/forgot">Forgot password?</a>' in login
    page = (await console.get("/password/forgot")).text
    assert '<label for="f-email">Email</label>' in page
    assert ">Send reset link</button>" in page


async def test_a_reset_link_sets_the_password_once_and_ends_every_other_session(
    app_run: AsyncTestClient[Litestar], console: Console, owner: User, inbox: Inbox
) -> None:
    async with another_browser(app_run) as elsewhere_client:
        await reset_while_signed_in_elsewhere(app_run, console, Console(elsewhere_client), owner, inbox)


async def reset_while_signed_in_elsewhere(
    app_run: AsyncTestClient[Litestar], console: Console, elsewhere: Console, owner: User, inbox: Inbox
) -> None:
    await elsewhere.login(owner.email)  # another browser, signed in before
    assert (await elsewhere.get("/projects", follow_redirects=False)).status_code == 200
    answer = await ask_for_link(console, owner.email.upper())
    assert answer.startswith("200 ") and SENT in answer
    (mail,) = await inbox.wait_for(1)
    assert inbox.recipients == [[owner.email]]
    assert mail["Subject"] == "Reset your Hearken password"
    assert owner.email in text_of(mail) and "60 minutes" in text_of(mail)
    path = urlsplit(link_in(mail, "/password/reset/")).path

    page = (await console.get(path)).text
    assert '<label for="f-new_password">New password</label>' in page and ">Set password</button>" in page
    short = await console.post(path, {"new_password": "short"})
    assert short.status_code == 400 and "Must be at least 10 characters" in errors_in(short.text)
    done = await console.post(path, {"new_password": NEW_PASSWORD}, follow_redirects=False)
    assert (done.status_code, done.headers["location"]) == (303, "/projects")
    assert (await console.get("/projects", follow_redirects=False)).status_code == 200  # signed in here
    assert (await elsewhere.get("/projects", follow_redirects=False)).status_code != 200  # not there
    assert (await console.get(path)).status_code == 404  # used up
    assert (await console.post(path, {"new_password": "another passphrase"})).status_code == 404

    async with another_browser(app_run) as fresh_client:
        fresh = Console(fresh_client)
        assert (await fresh.login(owner.email, PASSWORD)).status_code == 400
        assert (await fresh.login(owner.email, NEW_PASSWORD)).status_code == 303


async def test_an_address_without_an_account_gets_the_same_answer_and_no_mail(
    console: Console, owner: User, inbox: Inbox
) -> None:
    timings: dict[str, list[float]] = {"known": [], "unknown": []}
    answers = set()
    for round_ in range(3):
        for kind, email in (("known", owner.email), ("unknown", f"nobody{round_}@org-a.example")):
            started = time.perf_counter()
            answers.add(await ask_for_link(console, email))
            timings[kind].append(time.perf_counter() - started)
    assert len(answers) == 1 and next(iter(answers)).startswith("200 ")
    mails = await inbox.wait_for(3)
    assert [recipients for recipients in inbox.recipients] == [[owner.email]] * 3
    assert len(mails) == 3
    # the same class of work: neither path runs argon2 or anything ten times the other's cost
    known, unknown = min(timings["known"]), min(timings["unknown"])
    assert known < 10 * unknown and unknown < 10 * known, timings


async def test_links_expire_after_60_minutes(
    console: Console, owner: User, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    await ask_for_link(console, owner.email)
    (mail,) = await inbox.wait_for(1)
    path = urlsplit(link_in(mail, "/password/reset/")).path
    async with unit_of_work(session_maker) as session:
        await session.execute(update(PasswordReset).values(expires_at=utc_now() - timedelta(seconds=1)))
        await session.commit()
    assert (await console.get(path)).status_code == 404
    assert (await console.post(path, {"new_password": NEW_PASSWORD})).status_code == 404
    assert (await console.login(owner.email, PASSWORD)).status_code == 303


async def test_requests_are_limited_per_address_and_per_client_alike_for_unknown_addresses(
    console: Console, owner: User, inbox: Inbox
) -> None:
    for email in (owner.email, "ghost@org-a.example"):
        answers = [await ask_for_link(console, email) for _ in range(4)]
        assert all(answer.startswith("200 ") for answer in answers[:3])
        assert answers[3].startswith("429 ") and "Too many requests for this email" in answers[3]
    await inbox.wait_for(3)
    others = [await ask_for_link(console, f"someone{n}@org-a.example") for n in range(5)]
    assert [answer[:3] for answer in others] == ["200"] * 4 + ["429"]  # 10 per client in all
    assert len(inbox.messages) == 3


async def test_a_malformed_address_is_named(console: Console) -> None:
    answer = await ask_for_link(console, "not an address")
    assert answer.startswith("400 ") and "Must be an address like name@example.com" in answer
