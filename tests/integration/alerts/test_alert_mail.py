"""Alert mail through a real SMTP server: an alert opened mails the owner (who hears of alerts unless
they choose otherwise) and a member who chose "Every alert" under Notifications, with the title and a
link to the Alerts tab; the one-click link stops it; an update of the same episode mails nobody."""

from __future__ import annotations

from datetime import timedelta

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.alerts.checks import check_project
from app.db.models import Project, User
from app.db.transactions import unit_of_work
from app.timestamps import utc_now
from tests.alert_counts import count_answers
from tests.console_helpers import Console, add_user, another_browser
from tests.factories import Tenant
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]


async def drop_and_check(session_maker: async_sessionmaker[AsyncSession], tenant: Tenant, bad: int) -> None:
    now = utc_now()
    async with unit_of_work(session_maker) as session:
        if bad == 55:
            for back in range(2, 30):
                answers = {("helpful", 1): 32, ("helpful", 0): 8}
                await count_answers(
                    session, tenant.project.id, now - timedelta(days=back), answers, path="/a"
                )
        await count_answers(
            session, tenant.project.id, now, {("helpful", 1): 5, ("helpful", 0): bad}, path="/a"
        )
        await check_project(session, await session.get_one(Project, tenant.project.id), now)


async def test_an_opened_alert_mails_who_chose_it(
    console: Console,
    owner: User,
    tenant: Tenant,
    inbox: Inbox,
    session_maker: async_sessionmaker[AsyncSession],
    app_run: AsyncTestClient[Litestar],
) -> None:
    await add_user(session_maker, tenant.org_id, "member@org-a.example", "member")
    await console.login("member@org-a.example")
    url = f"/projects/{tenant.project_id}/notifications"
    page = (await console.get(url)).text
    assert '<label for="f-alerts">Alerts</label>' in page
    saved = await console.post(
        url, {"feedback": "off", "contact": "off", "alerts": "each"}, follow_redirects=True
    )
    assert "Saved." in saved.text
    refused = await console.post(url, {"feedback": "off", "contact": "off", "alerts": "daily"})
    assert refused.status_code == 400

    await drop_and_check(session_maker, tenant, bad=55)
    mails = await inbox.wait_for(2)
    assert sorted(r[0] for r in inbox.recipients) == ["member@org-a.example", owner.email]
    mail = mails[0]
    assert mail["Subject"] == "Alert in Org A docs"
    assert "Helpful on /a fell from 80 % to 8 %" in text_of(mail)
    assert f"/projects/{tenant.project_id}/alerts" in text_of(mail)

    path = httpx.URL(mail["List-Unsubscribe"].strip("<>")).path
    async with another_browser(app_run) as client:
        assert "mail about alerts in this project" in (await client.get(path)).text
        stopped = await client.post(
            path,
            content=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert stopped.status_code == 200
    await drop_and_check(session_maker, tenant, bad=80)  # the same episode, updated: no new mail
    assert len(inbox.messages) == 2
