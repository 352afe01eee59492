"""The portal over HTTP, without JavaScript, on both databases: the JSON API's identities (signed user
id, JWT, none: 401), one vote per person, pending ideas seen by their author only, spam kept out, the
pages in three languages with their forms, the embed's frame-ancestors, robots, the Atom feed, a
disabled portal, and hostile Markdown made harmless."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from litestar.testing import AsyncTestClient

from app.ideas.markdown import render_markdown
from tests.factories import Tenant
from tests.integration.ideas.conftest import open_board


async def test_json_api_identities_votes_and_pending(client: AsyncTestClient, tenant: Tenant) -> None:
    board = await open_board(client, tenant, auto_approve=False)
    nobody = await client.post(f"{board.api}/ideas", json={"title": "Dark mode"})
    assert nobody.status_code == 401 and nobody.json()["error"] == "unauthorized"
    forged = await client.post(
        f"{board.api}/ideas", params={"user": "ann", "sig": "00" * 32}, json={"title": "Dark mode"}
    )
    assert forged.status_code == 401
    expired = board.token("ann", exp=1)
    assert (
        await client.post(f"{board.api}/ideas", params={"token": expired}, json={"title": "x"})
    ).status_code == 401

    made = await client.post(f"{board.api}/ideas", params=board.signed("ann"), json={"title": "Dark mode"})
    assert made.status_code == 201 and made.json()["status"] == "pending"
    idea_id = made.json()["id"]
    assert (await client.get(f"{board.api}/ideas")).json()["ideas"] == []
    own = await client.get(f"{board.api}/ideas", headers=board.bearer("ann"))
    assert [i["title"] for i in own.json()["ideas"]] == ["Dark mode"]
    assert (await client.get(f"{board.api}/ideas/{idea_id}")).status_code == 404

    team = f"/api/v1/projects/{tenant.project_id}/ideas/{idea_id}"
    assert (await client.patch(team, json={"status": "open"}, headers=tenant.headers)).status_code == 200
    for _ in range(2):
        voted = await client.put(
            f"{board.api}/ideas/{idea_id}/vote", headers=board.bearer("bob", "bob@example.org")
        )
        assert voted.json() == {"voted": True, "votes": 1}
    same_person = await client.put(f"{board.api}/ideas/{idea_id}/vote", params=board.signed("bob"))
    assert same_person.json()["votes"] == 1  # a token's sub and a signed user id name the same person
    taken = await client.delete(f"{board.api}/ideas/{idea_id}/vote", params=board.signed("bob"))
    assert taken.json() == {"voted": False, "votes": 0}
    assert (await client.put(f"{board.api}/ideas/{idea_id}/vote")).status_code == 401

    comment = await client.post(
        f"{board.api}/ideas/{idea_id}/comments", headers=board.bearer("cy", name="Cy"), json={"body": "Yes!"}
    )
    assert comment.status_code == 201 and comment.json()["author"] == {"name": "Cy"}
    spam = await client.post(
        f"{board.api}/ideas",
        params=board.signed("bot"),
        json={"title": "Cheap pills", "website": "x.example"},
    )
    assert spam.status_code == 201  # answered like a success
    listed = (await client.get(f"{board.api}/ideas")).json()
    assert [(i["title"], i["comments"]) for i in listed["ideas"]] == [("Dark mode", 1)]
    spam_list = await client.get(
        f"/api/v1/projects/{tenant.project_id}/ideas?spam=true", headers=tenant.headers
    )
    assert [i["title"] for i in spam_list.json()["ideas"]] == ["Cheap pills"]


async def test_pages_without_javascript(client: AsyncTestClient, tenant: Tenant) -> None:
    board = await open_board(client, tenant, intro="Tell us **what** to build")
    first = await client.get(board.page, params=board.signed("ann"), headers={"Accept-Language": "sv"})
    assert first.status_code == 200 and "Idéer" in first.text and "<strong>what</strong>" in first.text
    assert 'name="robots" content="noindex, nofollow"' in first.text
    assert "frame-ancestors 'none'" in first.headers["content-security-policy"]
    assert first.cookies.get("hearken_portal")

    form = await client.get(f"{board.page}/suggest", params={"lang": "de"})
    assert 'for="idea-title">Titel<' in form.text and 'for="idea-body">Beschreibung<' in form.text
    visit = re.search(r'name="visit" value="([^"]+)"', form.text).group(1)  # the cookie remembered Ann
    refused = await client.post(f"{board.page}/suggest", data={"title": "", "body": "", "visit": visit})
    assert refused.status_code == 400 and "Required." in refused.text
    hostile = "<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>"
    sent = await client.post(
        f"{board.page}/suggest",
        data={"title": "Export to CSV", "body": hostile, "visit": visit, "checked": "1", "started": "0"},
        follow_redirects=False,
    )
    assert sent.status_code == 303
    page = await client.get(sent.headers["location"])
    assert "Export to CSV" in page.text and '<button type="submit" name="action" value="vote"' in page.text
    assert (
        "<script>alert" not in page.text and 'href="javascript' not in page.text and "<img" not in page.text
    )

    idea_path = sent.headers["location"]
    voted = await client.post(
        f"{idea_path}/vote", data={"action": "vote", "visit": visit}, follow_redirects=True
    )
    assert ">Remove vote<" in voted.text and "<strong>1</strong>" in voted.text
    forged = await client.post(f"{idea_path}/vote", data={"action": "unvote"}, follow_redirects=True)
    assert ">Remove vote<" in forged.text  # without the form's visit token nothing counts (CSRF)
    unvoted = await client.post(
        f"{idea_path}/vote", data={"action": "unvote", "visit": visit}, follow_redirects=True
    )
    assert ">Vote<" in unvoted.text and "<strong>0</strong>" in unvoted.text

    team = f"/api/v1/projects/{tenant.project_id}"
    idea_id = idea_path.rsplit("/", 1)[1]
    await client.patch(f"{team}/ideas/{idea_id}", json={"status": "planned"}, headers=tenant.headers)
    roadmap = await client.get(f"{board.page}/roadmap", params={"lang": "en"})
    assert "Planned" in roadmap.text and "In progress" in roadmap.text and "Export to CSV" in roadmap.text
    await client.post(
        f"{team}/changelog",
        json={
            "title": "v2 <b>",
            "body": "*CSV*",
            "published_at": "2026-01-02T00:00:00Z",
            "idea_ids": [idea_id],
        },
        headers=tenant.headers,
    )
    feed = await client.get(f"{board.page}/changelog.atom")
    assert feed.headers["content-type"].startswith("application/atom+xml")
    entry = ET.fromstring(feed.text).find("{http://www.w3.org/2005/Atom}entry")
    assert entry.findtext("{http://www.w3.org/2005/Atom}title") == "v2 <b>"
    assert "<em>CSV</em>" in entry.findtext("{http://www.w3.org/2005/Atom}content")
    searched = await client.get(board.page, params={"q": "csv", "status": "planned"})
    assert "Export to CSV" in searched.text


async def test_embed_disabled_and_indexable(client: AsyncTestClient, tenant: Tenant) -> None:
    url = f"/api/v1/projects/{tenant.project_id}"
    await client.patch(url, json={"allowed_origins": ["https://app.example.com"]}, headers=tenant.headers)
    board = await open_board(client, tenant, indexable=True)
    framed = await client.get(board.page, params={"embed": "true"})
    assert "frame-ancestors https://app.example.com" in framed.headers["content-security-policy"]
    assert "x-frame-options" not in framed.headers and 'content="index, follow"' in framed.text
    await client.patch(url, json={"portal": {"enabled": False}}, headers=tenant.headers)
    assert (await client.get(board.page)).status_code == 404
    assert (await client.get(f"{board.api}/ideas")).status_code == 404


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        "[click](javascript:alert(1))",
        "[click](JAVASCRIPT:alert(1))",
        "[click](  javascript:alert(1))",
        "<a href='javascript:alert(1)' onclick='x()'>a</a>",
        '<img src=x onerror="alert(1)">',
        "<svg onload=alert(1)>",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "<iframe src='https://evil.example'></iframe>",
        "[x](vbscript:msgbox)",
        "<div style='background:url(javascript:alert(1))'>",
    ],
)
def test_markdown_keeps_no_script(hostile: str) -> None:
    """What survives is text (shown escaped) or an allowed tag without a dangerous attribute."""
    tags = re.findall(r"<[^>]*>", str(render_markdown(hostile)).lower())
    for tag in tags:
        assert not re.match(r"</?(script|iframe|svg|img|div|style|object)\b", tag), tag
        assert not re.search(r"\son\w+\s*=|style\s*=|javascript:|vbscript:|data:", tag), tag
