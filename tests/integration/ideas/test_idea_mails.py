"""Closing the loop through a real SMTP server: when an idea is done each voter with an address gets one
mail in their language with a one-click unsubscribe (RFC 8058), never a second (not when it is done
again, nor when a changelog entry names it); an unsubscribed address gets none; and a portal that votes
by email mails a confirmation link that signs its owner in."""

from __future__ import annotations

import asyncio

from litestar.testing import AsyncTestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import IdeaNotice
from tests.factories import Tenant
from tests.integration.ideas.conftest import open_board
from tests.mail_server import Inbox, inbox_fixture, mailing_settings, text_of

__all__ = ["inbox_fixture", "mailing_settings"]


def local(link: str) -> str:
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


async def test_done_mails_each_voter_once_in_their_language(
    client: AsyncTestClient, tenant: Tenant, inbox: Inbox, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    board = await open_board(client, tenant)
    team = f"/api/v1/projects/{tenant.project_id}"
    idea = (await client.post(f"{team}/ideas", json={"title": "Dark mode"}, headers=tenant.headers)).json()
    other = (await client.post(f"{team}/ideas", json={"title": "Night theme"}, headers=tenant.headers)).json()
    vote = f"{board.api}/ideas/{idea['id']}/vote"
    await client.put(vote, headers=board.bearer("ann", "ann@example.org"), params={"lang": "de"})
    await client.put(vote, headers=board.bearer("bob", "bob@example.org"), params={"lang": "sv"})
    await client.put(vote, params=board.signed("cy"))  # no address: nobody to mail
    await client.put(f"{board.api}/ideas/{other['id']}/vote", headers=board.bearer("ann", "ann@example.org"))
    await client.post(f"{team}/ideas/{other['id']}/merge", json={"into": idea["id"]}, headers=tenant.headers)

    done = await client.patch(
        f"{team}/ideas/{idea['id']}",
        json={"status": "done", "response": "Shipped in 3.0"},
        headers=tenant.headers,
    )
    assert done.json()["votes"] == 3  # Ann voted for both: counted once
    mails = await inbox.wait_for(2)
    by_recipient = {m["To"]: m for m in mails}
    assert set(by_recipient) == {"ann@example.org", "bob@example.org"}
    assert by_recipient["ann@example.org"]["Subject"] == "Umgesetzt: Dark mode"
    assert by_recipient["bob@example.org"]["Subject"] == "Klart: Dark mode"
    assert "Shipped in 3.0" in text_of(by_recipient["bob@example.org"])
    unsubscribe = by_recipient["bob@example.org"]["List-Unsubscribe"].strip("<>")
    assert by_recipient["bob@example.org"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    await client.patch(f"{team}/ideas/{idea['id']}", json={"status": "planned"}, headers=tenant.headers)
    await client.patch(f"{team}/ideas/{idea['id']}", json={"status": "done"}, headers=tenant.headers)
    entry = {"title": "3.0", "published_at": "2026-01-01T00:00:00Z", "idea_ids": [idea["id"]]}
    assert (await client.post(f"{team}/changelog", json=entry, headers=tenant.headers)).status_code == 201

    page = await client.get(local(unsubscribe))
    assert page.status_code == 200 and "Stop mails about ideas" in page.text
    assert (await client.post(local(unsubscribe), content=b"List-Unsubscribe=One-Click")).status_code == 200
    third = (await client.post(f"{team}/ideas", json={"title": "CSV"}, headers=tenant.headers)).json()
    await client.put(f"{board.api}/ideas/{third['id']}/vote", headers=board.bearer("bob", "bob@example.org"))
    await client.put(f"{board.api}/ideas/{third['id']}/vote", headers=board.bearer("dee", "dee@example.org"))
    await client.patch(f"{team}/ideas/{third['id']}", json={"status": "done"}, headers=tenant.headers)
    (_, _, dee) = await inbox.wait_for(3)
    assert dee["To"] == "dee@example.org" and dee["Subject"] == "Done: CSV"
    await asyncio.sleep(0.3)  # the dispatcher looks every 50 ms: a fourth mail would have arrived
    assert len(inbox.messages) == 3
    async with session_maker() as session:
        assert await session.scalar(select(func.count()).select_from(IdeaNotice)) == 3


async def test_voting_by_email_confirms_the_address(
    client: AsyncTestClient, tenant: Tenant, inbox: Inbox
) -> None:
    board = await open_board(client, tenant, voting="email")
    team = f"/api/v1/projects/{tenant.project_id}"
    idea = (await client.post(f"{team}/ideas", json={"title": "Dark mode"}, headers=tenant.headers)).json()
    listed = await client.get(board.page)
    assert "Vote with your email" in listed.text and ">Vote<" not in listed.text
    asked = await client.post(f"{board.page}/sign-in?lang=sv", data={"email": "Eve@Example.org"})
    assert asked.status_code == 200 and "inkorg" in asked.text
    (mail,) = await inbox.wait_for(1)
    assert mail["Subject"].startswith("Bekräfta din adress")
    link = local(next(w for w in text_of(mail).split() if "/confirm/" in w))
    scanner = await client.get(link)  # following the link confirms nothing
    assert "Bekräfta och fortsätt" in scanner.text and not scanner.cookies.get("hearken_portal")
    confirmed = await client.post(link, follow_redirects=True)
    assert confirmed.status_code == 200 and "Inloggad som eve" in confirmed.text
    page = await client.get(f"{board.page}/ideas/{idea['id']}")
    visit = page.text.split('name="visit" value="', 1)[1].split('"', 1)[0]
    voted = await client.post(
        f"{board.page}/ideas/{idea['id']}/vote",
        data={"action": "vote", "visit": visit},
        follow_redirects=True,
    )
    assert ">Remove vote<" in voted.text
    voters = await client.get(f"{team}/ideas/{idea['id']}/voters", headers=tenant.headers)
    assert voters.json()["voters"][0]["email"] == "eve@example.org"
