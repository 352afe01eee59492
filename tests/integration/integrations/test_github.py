"""GitHub issues for feedback: saving the repository and token (checked with GitHub), filing an item as
an issue, and the signed webhook deliveries that resolve and reopen it, against a local fake of GitHub's
documented REST API. Signatures are computed here with hmac, as GitHub's documentation describes them."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import FeedbackItem, TrackerIntegration, User
from app.db.transactions import unit_of_work
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant
from tests.fake_github import FakeGithub, running

REPOSITORY = "acme/widgets"
TOKEN = "github_pat_11ABCDEFG0123456789_SECRETsecret"
BASE_URL = "http://hearken.example"  # http: the console test signs in over plain HTTP


@pytest.fixture(scope="module")
def module_fake() -> Iterator[FakeGithub]:
    with running(FakeGithub(repository=REPOSITORY, token=TOKEN)) as server:
        yield server


@pytest.fixture
def fake(module_fake: FakeGithub) -> FakeGithub:
    module_fake.requests.clear()
    module_fake.issues.clear()
    return module_fake


@pytest.fixture
def settings(database_url: str, fake: FakeGithub) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        github_api_url=fake.url,
        base_url=BASE_URL,
    )


def url(tenant: Tenant) -> str:
    return f"/api/v1/projects/{tenant.project_id}/integrations/github"


async def enable(client: AsyncTestClient, tenant: Tenant) -> dict[str, Any]:
    response = await client.put(
        url(tenant), json={"repository": REPOSITORY, "token": TOKEN}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    return response.json()


async def new_item(client: AsyncTestClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"message": "The export button does nothing\nClicked it twice.", "type": "Bug", **fields}
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json=body, headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    return response.json()


async def file_issue(client: AsyncTestClient, tenant: Tenant, item: dict[str, Any]) -> Any:
    return await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues",
        json={"tracker": "github"},
        headers=tenant.headers,
    )


async def item_now(client: AsyncTestClient, tenant: Tenant, item: dict[str, Any]) -> dict[str, Any]:
    response = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}", headers=tenant.headers
    )
    assert response.status_code == 200
    return response.json()


async def deliver(
    client: AsyncTestClient,
    receiver: str,
    payload: dict[str, Any],
    secret: str,
    *,
    event: str = "issues",
    delivery: str | None = None,
    signature: str | None = None,
) -> Any:
    body = json.dumps(payload).encode()
    if signature is None:
        signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid4()),
        "X-Hub-Signature-256": signature,
        "User-Agent": "GitHub-Hookshot/abc123",
    }
    return await client.post(receiver.removeprefix(BASE_URL), content=body, headers=headers)


async def test_saving_checks_the_token_and_shows_the_secret_only_then(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    saved = await enable(client, tenant)
    assert saved["enabled"] is True and saved["repository"] == REPOSITORY
    assert saved["webhook_url"].startswith(f"{BASE_URL}/api/v1/integrations/github/")
    assert len(saved["webhook_secret"]) == 64
    (checked,) = fake.requests
    assert (checked["method"], checked["path"]) == ("GET", f"/repos/{REPOSITORY}")
    assert checked["headers"]["authorization"] == f"Bearer {TOKEN}"
    assert checked["headers"]["accept"] == "application/vnd.github+json"
    assert checked["headers"]["x-github-api-version"] == "2022-11-28"
    got = await client.get(url(tenant), headers=tenant.read_headers)
    assert got.status_code == 200
    assert got.json() == {k: v for k, v in saved.items() if k != "webhook_secret"}
    assert TOKEN not in got.text and saved["webhook_secret"] not in got.text
    again = await enable(client, tenant)
    assert (again["webhook_url"], again["webhook_secret"]) == (saved["webhook_url"], saved["webhook_secret"])
    async with unit_of_work(session_maker) as session:
        row = await session.scalar(select(TrackerIntegration))
    assert row is not None and "SECRET" not in row.sealed_credential
    assert saved["webhook_secret"] not in row.sealed_webhook_secret
    audit = await client.get("/api/v1/audit-log", headers=tenant.headers)
    assert audit.status_code == 200, audit.text
    assert TOKEN not in audit.text and saved["webhook_secret"] not in audit.text
    assert [e["action"] for e in audit.json()["entries"] if e["details"].get("kind") == "github"][:2] == [
        "integration.updated",  # the token re-sealed; the webhook secret kept
        "integration.created",
    ]
    assert (await client.delete(url(tenant), headers=tenant.headers)).status_code == 204
    assert (await client.get(url(tenant), headers=tenant.headers)).status_code == 404


async def test_a_refused_token_or_an_unseen_repository_is_400_naming_the_field(
    client: AsyncTestClient, tenant: Tenant
) -> None:
    for body, field in (
        ({"repository": REPOSITORY, "token": "github_pat_wrong"}, "token"),
        ({"repository": "acme/secret-plans", "token": TOKEN}, "repository"),
        ({"repository": "not a repository", "token": TOKEN}, "repository"),
        ({"repository": REPOSITORY}, "token"),
    ):
        response = await client.put(url(tenant), json=body, headers=tenant.headers)
        assert response.status_code == 400, (body, response.text)
        assert response.json()["error"] == "invalid_request"
        assert response.json()["details"].startswith(f"{field}:"), response.json()
        assert TOKEN not in response.text
    assert (await client.get(url(tenant), headers=tenant.headers)).status_code == 404


async def test_an_item_becomes_an_issue_with_its_details_and_a_link_back(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    item = await new_item(client, tenant, path="/settings/export", version="2.4.1", submitted_by="user_4711")
    async with unit_of_work(session_maker) as session:  # as a signed identity from the widget would set it
        await session.execute(update(FeedbackItem).values(submitted_by_verified=True))
    not_set_up = await file_issue(client, tenant, item)
    assert not_set_up.status_code == 409 and "no GitHub integration" in not_set_up.json()["details"]
    await enable(client, tenant)
    response = await file_issue(client, tenant, item)
    assert response.status_code == 201, response.text
    assert response.json() == {
        "tracker": "github",
        "url": f"https://github.com/{REPOSITORY}/issues/1",
        "key": f"{REPOSITORY}#1",
    }
    filed = fake.requests[-1]
    assert (filed["method"], filed["path"]) == ("POST", f"/repos/{REPOSITORY}/issues")
    assert filed["headers"]["authorization"] == f"Bearer {TOKEN}"
    sent = json.loads(filed["body"])
    assert "The export button does nothing" in sent["title"] and "Clicked" not in sent["title"]
    for words in (
        "> The export button does nothing",
        "> Clicked it twice.",
        "/settings/export",
        "2.4.1",
        "Bug",
        "`user_4711` (verified)",
        f"{BASE_URL}/projects/{tenant.project_id}/feedback/{item['id']}",
    ):
        assert words in sent["body"], words
    assert (await item_now(client, tenant, item))["linked_issues"] == [
        {
            "tracker": "github",
            "url": f"https://github.com/{REPOSITORY}/issues/1",
            "key": f"{REPOSITORY}#1",
            "state": "open",
        }
    ]
    no_tracker = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues", json={}, headers=tenant.headers
    )
    assert no_tracker.status_code == 400 and no_tracker.json()["details"].startswith("tracker:")
    twice = await file_issue(client, tenant, item)
    assert twice.status_code == 409 and twice.json()["details"].startswith("tracker:")
    assert len(fake.issues) == 1


async def test_a_refusal_from_github_is_502_and_links_nothing(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub
) -> None:
    item = await new_item(client, tenant)
    await enable(client, tenant)
    fake.issues_disabled = True
    try:
        response = await file_issue(client, tenant, item)
    finally:
        fake.issues_disabled = False
    assert response.status_code == 502 and "410" in response.json()["details"]
    assert "linked_issues" not in await item_now(client, tenant, item)


async def test_closing_the_issue_resolves_the_item_and_reopening_makes_it_active(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub
) -> None:
    item = await new_item(client, tenant)
    saved = await enable(client, tenant)
    await file_issue(client, tenant, item)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    ping = await deliver(
        client, receiver, {"zen": "Keep it logically awesome.", "hook_id": 1}, secret, event="ping"
    )
    assert ping.status_code == 200
    closed = await deliver(client, receiver, fake.issues_event("closed", 1), secret, delivery="d-closed")
    assert closed.status_code == 200 and closed.json() == {"received": True, "changed": True}
    now = await item_now(client, tenant, item)
    assert now["status"] == "Resolved" and now["linked_issues"][0]["state"] == "closed"
    history = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/history", headers=tenant.headers
    )
    assert {"field": "status", "to": "Resolved", "changed_by": "GitHub"}.items() <= history.json()["history"][
        -1
    ].items()
    reopened = await deliver(client, receiver, fake.issues_event("reopened", 1), secret)
    assert reopened.json() == {"received": True, "changed": True}
    now = await item_now(client, tenant, item)
    assert now["status"] == "Active" and now["linked_issues"][0]["state"] == "open"
    repeated = await deliver(client, receiver, fake.issues_event("closed", 1), secret, delivery="d-closed")
    assert repeated.status_code == 200 and repeated.json()["changed"] is False
    assert (await item_now(client, tenant, item))["status"] == "Active"


async def test_unknown_issues_and_bad_signatures_change_nothing(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub
) -> None:
    item = await new_item(client, tenant)
    saved = await enable(client, tenant)
    await file_issue(client, tenant, item)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    unknown = fake.issues_event("closed", 1)
    unknown["issue"]["number"] = 999
    answer = await deliver(client, receiver, unknown, secret)
    assert answer.status_code == 200 and answer.json()["changed"] is False
    event = fake.issues_event("closed", 1)
    for signature in ("sha256=" + "0" * 64, "", "sha1=abc"):
        refused = await deliver(client, receiver, event, secret, signature=signature, delivery="d-1")
        assert refused.status_code == 401, signature
        assert refused.json()["error"] == "unauthorized"
    forged = await deliver(client, receiver, event, "another secret", delivery="d-1")
    assert forged.status_code == 401
    assert (await item_now(client, tenant, item))["status"] == "New"
    # The refused deliveries claimed nothing: the genuine one with the same id is still acted on.
    assert (await deliver(client, receiver, event, secret, delivery="d-1")).json()["changed"] is True
    gone = receiver.rsplit("/", 1)[0] + f"/{uuid4()}"
    assert (await deliver(client, gone, event, secret)).status_code == 404


async def test_another_organization_can_use_neither_the_integration_nor_the_items(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant, fake: FakeGithub
) -> None:
    item = await new_item(client, tenant)
    await enable(client, tenant)
    await file_issue(client, tenant, item)
    for method, path, body in (
        ("GET", url(tenant), None),
        ("PUT", url(tenant), {"repository": REPOSITORY, "token": TOKEN}),
        ("DELETE", url(tenant), None),
        ("POST", f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues", {"tracker": "github"}),
        (
            "POST",
            f"/api/v1/projects/{other_tenant.project_id}/feedback/{item['id']}/issues",
            {"tracker": "github"},
        ),
    ):
        response = await client.request(method, path, json=body, headers=other_tenant.headers)
        assert response.status_code in (403, 404), (method, path, response.text)
    # B's own integration on the same repository, with B's secret, cannot close A's item.
    theirs = await enable(client, other_tenant)
    answer = await deliver(
        client, theirs["webhook_url"], fake.issues_event("closed", 1), theirs["webhook_secret"]
    )
    assert answer.status_code == 200 and answer.json()["changed"] is False
    assert (await item_now(client, tenant, item))["status"] == "New"
    assert len(fake.issues) == 1


async def test_the_console_sets_github_up_files_an_issue_and_shows_it(
    console: Console, client: AsyncTestClient, owner: User, tenant: Tenant, fake: FakeGithub
) -> None:
    await console.login(owner.email)
    item = await new_item(client, tenant)
    item_page = f"/projects/{tenant.project_id}/feedback/{item['id']}"
    assert "Create GitHub issue" not in (await console.get(item_page)).text  # not set up yet
    integrations = f"/projects/{tenant.project_id}/integrations"
    assert "Save GitHub" in (await console.get(integrations)).text
    refused = await console.post(
        f"{integrations}/github", {"repository": REPOSITORY, "token": "github_pat_wrong"}
    )
    assert refused.status_code == 400 and "the token was refused" in " ".join(errors_in(refused.text))
    saved = await console.post(f"{integrations}/github", {"repository": REPOSITORY, "token": TOKEN})
    assert saved.status_code == 200 and TOKEN not in saved.text
    url_shown = re.search(r'id="github-webhook-url">(http[^<]+)<', saved.text)
    secret_shown = re.search(r'id="github-webhook-secret">([0-9a-f]{64})<', saved.text)
    assert url_shown and secret_shown
    api = (await client.get(url(tenant), headers=tenant.headers)).json()
    assert api["webhook_url"] == url_shown.group(1)
    again = (await console.get(integrations)).text
    assert url_shown.group(1) in again and secret_shown.group(1) not in again  # the secret, once
    page = (await console.get(item_page)).text
    assert "Create GitHub issue" in page
    filed = await console.post(f"{item_page}/issues/github")
    assert filed.status_code == 200, filed.text
    assert f"https://github.com/{REPOSITORY}/issues/1" in filed.text and f"{REPOSITORY}#1" in filed.text
    assert "Create GitHub issue" not in filed.text  # one issue per item
    closed = await deliver(
        console.client, url_shown.group(1), fake.issues_event("closed", 1), secret_shown.group(1)
    )
    assert closed.json()["changed"] is True
    assert 'id="detail-status">Resolved<' in (await console.get(item_page)).text


async def test_a_replayed_or_older_delivery_changes_nothing(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub
) -> None:
    """Review finding 12: the signature covers only the body, so a captured delivery sent again under a
    new delivery id, or a change older than the one last applied, must not move the item again."""
    item = await new_item(client, tenant)
    saved = await enable(client, tenant)
    await file_issue(client, tenant, item)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    start = time.time()
    closed = fake.issues_event("closed", 1, at=start)
    assert (await deliver(client, receiver, closed, secret)).json()["changed"] is True
    reopened = fake.issues_event("reopened", 1, at=start + 60)
    assert (await deliver(client, receiver, reopened, secret)).json()["changed"] is True
    replayed = await deliver(client, receiver, closed, secret, delivery=str(uuid4()))
    assert replayed.status_code == 200 and replayed.json()["changed"] is False
    late = fake.issues_event("closed", 1, at=start + 30)  # closed again before the reopening, sent late
    assert (await deliver(client, receiver, late, secret)).json()["changed"] is False
    now = await item_now(client, tenant, item)
    assert now["status"] == "Active" and now["linked_issues"][0]["state"] == "open"


async def test_mentions_in_visitor_text_notify_nobody(
    client: AsyncTestClient, tenant: Tenant, fake: FakeGithub
) -> None:
    """Review finding 13: visitor text went raw into the issue, so an `@org/team` in feedback notified
    GitHub users; now no mention nor cross-repository reference survives, and the words read the same."""
    message = "@acme/core-team export broke\ncc @octocat, like other/repo#7 (and our #3); mail me a@b.io"
    item = await new_item(client, tenant, message=message)
    await enable(client, tenant)
    assert (await file_issue(client, tenant, item)).status_code == 201
    sent = json.loads(fake.requests[-1]["body"])
    for text in (sent["title"], sent["body"]):
        assert not re.search(r"(^|[^\w`])@[A-Za-z0-9]", text), text
        assert not re.search(r"/repo#\d", text), text
    visible = sent["body"].replace("\u2060", "")
    assert "> @acme/core-team export broke" in visible and "other/repo#7 (and our #3)" in visible
    assert sent["title"].replace("\u2060", "") == "[Bug] @acme/core-team export broke"
