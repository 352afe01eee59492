"""Issue trackers for feedback, the same for GitHub, Linear and Jira Cloud: saving the settings and
credential (checked with the tracker), filing an item as an issue, and the signed webhook deliveries
that resolve and reopen it, against local fakes of each tracker's documented API (`tests/fake_github.py`,
`tests/fake_linear.py`, `tests/fake_jira.py`). Signatures are computed here with hmac, as each tracker's
documentation describes them. Every test runs for every tracker, so a tracker added to
`app/integrations/trackers.py` is held to all of it once its driver is added here."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import FeedbackItem, TrackerIntegration, User
from app.db.transactions import unit_of_work
from app.integrations.tracker import TrackerError
from app.integrations.trackers import TRACKERS
from tests import fake_github, fake_jira, fake_linear
from tests.console_helpers import Console, errors_in
from tests.factories import Tenant
from tests.fake_github import FakeGithub
from tests.fake_jira import FakeJira
from tests.fake_linear import FakeLinear

BASE_URL = "http://hearken.example"  # http: the console test signs in over plain HTTP
REPOSITORY = "acme/widgets"
GITHUB_TOKEN = "github_pat_11ABCDEFG0123456789_SECRETsecret"
TEAM_ID = "9cfb482a-81e3-4154-b5b9-2c805e70a02d"
LINEAR_KEY = "lin_api_0123456789SECRETsecret"
JIRA_EMAIL = "triage@acme.example"
JIRA_TOKEN = "ATATT3xFfGF0SECRETsecret0123456789"
MENTION = re.compile(r"(^|[^\w`])@[A-Za-z0-9]")


@dataclass
class Fakes:
    github: FakeGithub
    linear: FakeLinear
    jira: FakeJira


@dataclass
class Driver:
    """What differs between trackers, as a test sees it."""

    name: str
    label: str
    body: dict[str, Any]
    credential: str
    refusals: list[tuple[dict[str, Any], str]]
    """Bodies the tracker (or the body's rules) refuse, and the field the 400 names."""
    form: dict[str, str]
    wrong_form: tuple[dict[str, str], str]
    """A console form the tracker refuses, and the words shown beside the field."""
    key: Callable[[int], str]
    url: Callable[[int], str]
    sent: Callable[[], tuple[str, str]]
    """The last filed issue's title and text, as the tracker received them."""
    event: Callable[[int, bool, float | None], dict[str, Any]]
    """The delivery of issue n closing (True) or reopening (False), changed at a time (None: now)."""
    headers: Callable[[bytes, str, str, str | None], dict[str, str]]
    """(body, secret, delivery id, signature or None to sign): the delivery's headers."""
    other_event: Callable[[], tuple[dict[str, Any], dict[str, str]]]
    """A delivery that is no issue's change (a ping, a comment), and headers of its own."""
    unknown: Callable[[dict[str, Any]], None]
    """Make a delivery name an issue Hearken did not file."""
    refusing: Callable[[bool], None]
    refusal_words: str
    issues: Callable[[], list[dict[str, Any]]]


def _signed(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def github_driver(fake: FakeGithub) -> Driver:
    def headers(body: bytes, secret: str, delivery: str, signature: str | None) -> dict[str, str]:
        return {
            "X-GitHub-Event": "issues",
            "X-GitHub-Delivery": delivery,
            "X-Hub-Signature-256": signature if signature is not None else "sha256=" + _signed(secret, body),
            "User-Agent": "GitHub-Hookshot/abc123",
        }

    def sent() -> tuple[str, str]:
        fields = json.loads(fake.requests[-1]["body"])
        return fields["title"], fields["body"]

    def unknown(payload: dict[str, Any]) -> None:
        payload["issue"]["number"] = 999

    return Driver(
        name="github",
        label="GitHub",
        body={"repository": REPOSITORY, "token": GITHUB_TOKEN},
        credential=GITHUB_TOKEN,
        refusals=[
            ({"repository": REPOSITORY, "token": "github_pat_wrong"}, "token"),
            ({"repository": "acme/secret-plans", "token": GITHUB_TOKEN}, "repository"),
            ({"repository": "not a repository", "token": GITHUB_TOKEN}, "repository"),
            ({"repository": REPOSITORY}, "token"),
            ({"repository": REPOSITORY, "token": GITHUB_TOKEN, "team_id": TEAM_ID}, "body"),  # unknown field
        ],
        form={"repository": REPOSITORY, "token": GITHUB_TOKEN},
        wrong_form=({"repository": REPOSITORY, "token": "github_pat_wrong"}, "the token was refused"),
        key=lambda n: f"{REPOSITORY}#{n}",
        url=lambda n: f"https://github.com/{REPOSITORY}/issues/{n}",
        sent=sent,
        event=lambda n, closed, at: fake.issues_event("closed" if closed else "reopened", n, at=at),
        headers=headers,
        other_event=lambda: ({"zen": "Keep it logically awesome.", "hook_id": 1}, {"X-GitHub-Event": "ping"}),
        unknown=unknown,
        refusing=lambda on: setattr(fake, "issues_disabled", on),
        refusal_words="410",
        issues=lambda: fake.issues,
    )


def linear_driver(fake: FakeLinear) -> Driver:
    def headers(body: bytes, secret: str, delivery: str, signature: str | None) -> dict[str, str]:
        return {
            "Linear-Delivery": delivery,
            "Linear-Event": "Issue",
            "Linear-Signature": signature if signature is not None else _signed(secret, body),
            "User-Agent": "Linear-Webhook",
        }

    def sent() -> tuple[str, str]:
        fields = json.loads(fake.requests[-1]["body"])["variables"]["input"]
        return fields["title"], fields["description"]

    def event(number: int, closed: bool, at: float | None) -> dict[str, Any]:
        # Sent now (its webhookTimestamp must be fresh), about a change made at `at`.
        return fake.issue_event(number, "completed" if closed else "started", changed_at=at)

    def unknown(payload: dict[str, Any]) -> None:
        payload["data"]["identifier"] = "ENG-999"

    comment = {"action": "create", "type": "Comment", "data": {"id": "c1", "body": "hi"}}
    return Driver(
        name="linear",
        label="Linear",
        body={"team_id": TEAM_ID, "api_key": LINEAR_KEY},
        credential=LINEAR_KEY,
        refusals=[
            ({"team_id": TEAM_ID, "api_key": "lin_api_wrong"}, "api_key"),
            ({"team_id": "11111111-2222-3333-4444-555555555555", "api_key": LINEAR_KEY}, "team_id"),
            ({"team_id": TEAM_ID}, "api_key"),
        ],
        form={"team_id": TEAM_ID, "linear_api_key": LINEAR_KEY},
        wrong_form=({"team_id": TEAM_ID, "linear_api_key": "lin_api_wrong"}, "Linear refused the API key"),
        key=lambda n: f"ENG-{n}",
        url=lambda n: str(fake.issues[n - 1]["url"]),
        sent=sent,
        event=event,
        headers=headers,
        other_event=lambda: ({**comment, "webhookTimestamp": int(time.time() * 1000)}, {}),
        unknown=unknown,
        refusing=lambda on: setattr(fake, "refuse_issues", on),
        refusal_words="Linear answered",
        issues=lambda: fake.issues,
    )


def jira_driver(fake: FakeJira) -> Driver:
    def headers(body: bytes, secret: str, delivery: str, signature: str | None) -> dict[str, str]:
        return {
            "X-Atlassian-Webhook-Identifier": delivery,
            "X-Hub-Signature": signature if signature is not None else "sha256=" + _signed(secret, body),
            "User-Agent": "Atlassian Webhook HTTP Client",
        }

    def sent() -> tuple[str, str]:
        fields = json.loads(fake.requests[-1]["body"])["fields"]
        return fields["summary"], adf_text(fields["description"])

    def unknown(payload: dict[str, Any]) -> None:
        payload["issue"]["key"] = "ENG-999"

    body = {"site_url": fake.url, "project_key": "ENG", "email": JIRA_EMAIL, "api_token": JIRA_TOKEN}
    return Driver(
        name="jira",
        label="Jira",
        body=body,
        credential=JIRA_TOKEN,
        refusals=[
            ({**body, "api_token": "ATATT-wrong"}, "api_token"),
            ({**body, "project_key": "OPS"}, "project_key"),
            ({**body, "site_url": "ftp://acme.atlassian.net"}, "site_url"),
            ({**body, "site_url": "http://127.0.0.1:9"}, "site_url"),  # nothing listens there
            ({k: v for k, v in body.items() if k != "api_token"}, "api_token"),
        ],
        form={"site_url": fake.url, "project_key": "ENG", "email": JIRA_EMAIL, "jira_api_token": JIRA_TOKEN},
        wrong_form=(
            {"site_url": fake.url, "project_key": "ENG", "email": JIRA_EMAIL, "jira_api_token": "wrong"},
            "the email and API token were refused",
        ),
        key=lambda n: f"ENG-{n}",
        url=fake.browse_url,
        sent=sent,
        event=lambda n, closed, at: fake.issue_event(n, "done" if closed else "indeterminate", at=at),
        headers=headers,
        other_event=lambda: ({"webhookEvent": "comment_created", "timestamp": 1, "comment": {"id": "1"}}, {}),
        unknown=unknown,
        refusing=lambda on: setattr(fake, "refuse_issues", on),
        refusal_words="Sprint is required",
        issues=lambda: fake.issues,
    )


def adf_text(node: dict[str, Any]) -> str:
    """An Atlassian Document's words: its text nodes (a link's address after it), a line for each
    paragraph and hard break."""
    if node.get("type") == "text":
        links = [mark["attrs"]["href"] for mark in node.get("marks", []) if mark["type"] == "link"]
        return str(node["text"]) + "".join(f" <{link}>" for link in links)
    if node.get("type") == "hardBreak":
        return "\n"
    inner = "".join(adf_text(child) for child in node.get("content", []))
    return inner + "\n" if node.get("type") == "paragraph" else inner


@pytest.fixture(scope="module")
def served_fakes() -> Iterator[Fakes]:
    with ExitStack() as stack:
        yield Fakes(
            github=stack.enter_context(
                fake_github.running(FakeGithub(repository=REPOSITORY, token=GITHUB_TOKEN))
            ),
            linear=stack.enter_context(fake_linear.running(FakeLinear(team_id=TEAM_ID, api_key=LINEAR_KEY))),
            jira=stack.enter_context(fake_jira.running(FakeJira(email=JIRA_EMAIL, api_token=JIRA_TOKEN))),
        )


@pytest.fixture
def fakes(served_fakes: Fakes) -> Fakes:
    """The fakes, with no request and no issue yet."""
    for fake in (served_fakes.github, served_fakes.linear, served_fakes.jira):
        fake.requests.clear()
        fake.issues.clear()
    return served_fakes


@pytest.fixture(params=list(TRACKERS))
def tracker(request: pytest.FixtureRequest, fakes: Fakes) -> Driver:
    drivers = {"github": github_driver, "linear": linear_driver, "jira": jira_driver}
    return drivers[request.param](getattr(fakes, request.param))  # type: ignore[operator]


@pytest.fixture
def settings(database_url: str, fakes: Fakes) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        github_api_url=fakes.github.url,
        linear_api_url=fakes.linear.url,
        base_url=BASE_URL,
        periodic_jobs=False,  # as the suite's settings: a test runs the job it needs itself
    )


def url(tenant: Tenant, tracker: Driver) -> str:
    return f"/api/v1/projects/{tenant.project_id}/integrations/{tracker.name}"


async def enable(client: AsyncTestClient, tenant: Tenant, tracker: Driver) -> dict[str, Any]:
    response = await client.put(url(tenant, tracker), json=tracker.body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return response.json()


async def new_item(client: AsyncTestClient, tenant: Tenant, **fields: Any) -> dict[str, Any]:
    body = {"message": "The export button does nothing\nClicked it twice.", "type": "Bug", **fields}
    response = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback", json=body, headers=tenant.headers
    )
    assert response.status_code == 201, response.text
    return response.json()


async def file_issue(client: AsyncTestClient, tenant: Tenant, item: dict[str, Any], tracker: Driver) -> Any:
    return await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues",
        json={"tracker": tracker.name},
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
    tracker: Driver,
    receiver: str,
    payload: dict[str, Any],
    secret: str,
    *,
    delivery: str | None = None,
    signature: str | None = None,
    extra: dict[str, str] | None = None,
) -> Any:
    body = json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        **tracker.headers(body, secret, delivery or str(uuid4()), signature),
        **(extra or {}),
    }
    return await client.post(receiver.removeprefix(BASE_URL), content=body, headers=headers)


async def test_saving_checks_the_credential_and_shows_the_secret_only_then(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    saved = await enable(client, tenant, tracker)
    shown = {k: v for k, v in tracker.body.items() if v != tracker.credential}
    assert saved.items() >= {"enabled": True, **shown}.items()
    assert saved["webhook_url"].startswith(f"{BASE_URL}/api/v1/integrations/{tracker.name}/")
    assert re.fullmatch(r"(lin_wh_)?[0-9a-f]{64}", saved["webhook_secret"])
    got = await client.get(url(tenant, tracker), headers=tenant.read_headers)
    assert got.status_code == 200
    assert got.json() == {k: v for k, v in saved.items() if k != "webhook_secret"}
    assert tracker.credential not in got.text and saved["webhook_secret"] not in got.text
    again = await enable(client, tenant, tracker)
    assert (again["webhook_url"], again["webhook_secret"]) == (saved["webhook_url"], saved["webhook_secret"])
    async with unit_of_work(session_maker) as session:
        row = await session.scalar(select(TrackerIntegration))
    assert row is not None and "SECRET" not in row.sealed_credential
    assert saved["webhook_secret"] not in row.sealed_webhook_secret
    audit = await client.get("/api/v1/audit-log", headers=tenant.headers)
    assert audit.status_code == 200, audit.text
    assert tracker.credential not in audit.text and saved["webhook_secret"] not in audit.text
    assert [e["action"] for e in audit.json()["entries"] if e["details"].get("kind") == tracker.name][:2] == [
        "integration.updated",  # the credential re-sealed; the webhook secret kept
        "integration.created",
    ]
    assert (await client.delete(url(tenant, tracker), headers=tenant.headers)).status_code == 204
    assert (await client.get(url(tenant, tracker), headers=tenant.headers)).status_code == 404


async def test_a_refused_credential_or_an_unseen_target_is_400_naming_the_field(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    for body, field in tracker.refusals:
        response = await client.put(url(tenant, tracker), json=body, headers=tenant.headers)
        assert response.status_code == 400, (body, response.text)
        assert response.json()["error"] == "invalid_request"
        assert response.json()["details"].startswith(f"{field}:"), response.json()
        assert tracker.credential not in response.text
    assert (await client.get(url(tenant, tracker), headers=tenant.headers)).status_code == 404
    unknown = await client.put(
        f"/api/v1/projects/{tenant.project_id}/integrations/trello", json=tracker.body, headers=tenant.headers
    )
    assert unknown.status_code in (400, 404) and unknown.json()["details"].startswith("tracker")


async def test_an_item_becomes_an_issue_with_its_details_and_a_link_back(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver, session_maker: async_sessionmaker[AsyncSession]
) -> None:
    item = await new_item(client, tenant, path="/settings/export", version="2.4.1", submitted_by="user_4711")
    async with unit_of_work(session_maker) as session:  # as a signed identity from the widget would set it
        await session.execute(update(FeedbackItem).values(submitted_by_verified=True))
    not_set_up = await file_issue(client, tenant, item, tracker)
    assert not_set_up.status_code == 409
    assert f"no {tracker.label} integration" in not_set_up.json()["details"]
    await enable(client, tenant, tracker)
    response = await file_issue(client, tenant, item, tracker)
    assert response.status_code == 201, response.text
    assert response.json() == {"tracker": tracker.name, "url": tracker.url(1), "key": tracker.key(1)}
    title, text = tracker.sent()
    assert "The export button does nothing" in title and "Clicked" not in title
    for words in (
        "The export button does nothing",
        "Clicked it twice.",
        "/settings/export",
        "2.4.1",
        "Bug",
        "user_4711",
        "(verified)",
        f"{BASE_URL}/projects/{tenant.project_id}/feedback/{item['id']}",
    ):
        assert words in text, words
    assert (await item_now(client, tenant, item))["linked_issues"] == [
        {"tracker": tracker.name, "url": tracker.url(1), "key": tracker.key(1), "state": "open"}
    ]
    no_tracker = await client.post(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues", json={}, headers=tenant.headers
    )
    assert no_tracker.status_code == 400 and no_tracker.json()["details"].startswith("tracker:")
    twice = await file_issue(client, tenant, item, tracker)
    assert twice.status_code == 409 and twice.json()["details"].startswith("tracker:")
    assert len(tracker.issues()) == 1


async def test_a_refusal_from_the_tracker_is_502_and_links_nothing(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    item = await new_item(client, tenant)
    await enable(client, tenant, tracker)
    tracker.refusing(True)
    try:
        response = await file_issue(client, tenant, item, tracker)
    finally:
        tracker.refusing(False)
    assert response.status_code == 502 and tracker.refusal_words in response.json()["details"]
    assert "linked_issues" not in await item_now(client, tenant, item)


async def test_closing_the_issue_resolves_the_item_and_reopening_makes_it_active(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    item = await new_item(client, tenant)
    saved = await enable(client, tenant, tracker)
    await file_issue(client, tenant, item, tracker)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    other, extra = tracker.other_event()
    ignored = await deliver(client, tracker, receiver, other, secret, extra=extra)
    assert ignored.status_code == 200 and ignored.json() == {"received": True, "changed": False}
    closed = await deliver(
        client, tracker, receiver, tracker.event(1, True, None), secret, delivery="d-closed"
    )
    assert closed.status_code == 200 and closed.json() == {"received": True, "changed": True}
    now = await item_now(client, tenant, item)
    assert now["status"] == "Resolved" and now["linked_issues"][0]["state"] == "closed"
    history = await client.get(
        f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/history", headers=tenant.headers
    )
    last = history.json()["history"][-1]
    assert {"field": "status", "to": "Resolved", "changed_by": tracker.label}.items() <= last.items()
    reopened = await deliver(client, tracker, receiver, tracker.event(1, False, None), secret)
    assert reopened.json() == {"received": True, "changed": True}
    now = await item_now(client, tenant, item)
    assert now["status"] == "Active" and now["linked_issues"][0]["state"] == "open"
    repeated = await deliver(
        client, tracker, receiver, tracker.event(1, True, None), secret, delivery="d-closed"
    )
    assert repeated.status_code == 200 and repeated.json()["changed"] is False
    assert (await item_now(client, tenant, item))["status"] == "Active"


async def test_unknown_issues_and_bad_signatures_change_nothing(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    item = await new_item(client, tenant)
    saved = await enable(client, tenant, tracker)
    await file_issue(client, tenant, item, tracker)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    unknown = tracker.event(1, True, None)
    tracker.unknown(unknown)
    answer = await deliver(client, tracker, receiver, unknown, secret)
    assert answer.status_code == 200 and answer.json()["changed"] is False
    event = tracker.event(1, True, None)
    for signature in ("sha256=" + "0" * 64, "0" * 64, "", "sha1=abc"):
        refused = await deliver(client, tracker, receiver, event, secret, signature=signature, delivery="d-1")
        assert refused.status_code == 401, signature
        assert refused.json()["error"] == "unauthorized"
    forged = await deliver(client, tracker, receiver, event, "another secret", delivery="d-1")
    assert forged.status_code == 401
    assert (await item_now(client, tenant, item))["status"] == "New"
    # The refused deliveries claimed nothing: the genuine one with the same id is still acted on.
    assert (await deliver(client, tracker, receiver, event, secret, delivery="d-1")).json()["changed"] is True
    gone = receiver.rsplit("/", 1)[0] + f"/{uuid4()}"
    assert (await deliver(client, tracker, gone, event, secret)).status_code == 404
    integration_id = receiver.rsplit("/", 1)[1]
    for other in set(TRACKERS) - {tracker.name}:  # the id under another tracker's path is no receiver
        elsewhere = f"{BASE_URL}/api/v1/integrations/{other}/{integration_id}"
        assert (await deliver(client, tracker, elsewhere, event, secret)).status_code == 404


async def test_another_organization_can_use_neither_the_integration_nor_the_items(
    client: AsyncTestClient, tenant: Tenant, other_tenant: Tenant, tracker: Driver
) -> None:
    item = await new_item(client, tenant)
    await enable(client, tenant, tracker)
    await file_issue(client, tenant, item, tracker)
    issues = f"/api/v1/projects/{tenant.project_id}/feedback/{item['id']}/issues"
    for method, path, body in (
        ("GET", url(tenant, tracker), None),
        ("PUT", url(tenant, tracker), tracker.body),
        ("DELETE", url(tenant, tracker), None),
        ("POST", issues, {"tracker": tracker.name}),
        (
            "POST",
            issues.replace(str(tenant.project_id), str(other_tenant.project_id)),
            {"tracker": tracker.name},
        ),
    ):
        response = await client.request(method, path, json=body, headers=other_tenant.headers)
        assert response.status_code in (403, 404), (method, path, response.text)
    # B's own integration with the same tracker, with B's secret, cannot close A's item.
    theirs = await enable(client, other_tenant, tracker)
    answer = await deliver(
        client, tracker, theirs["webhook_url"], tracker.event(1, True, None), theirs["webhook_secret"]
    )
    assert answer.status_code == 200 and answer.json()["changed"] is False
    assert (await item_now(client, tenant, item))["status"] == "New"
    assert len(tracker.issues()) == 1


async def test_a_replayed_or_older_delivery_changes_nothing(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    """Review finding 12: the signature covers only the body, so a captured delivery sent again under a
    new delivery id, or a change older than the one last applied, must not move the item again."""
    item = await new_item(client, tenant)
    saved = await enable(client, tenant, tracker)
    await file_issue(client, tenant, item, tracker)
    secret, receiver = saved["webhook_secret"], saved["webhook_url"]
    start = time.time() - 50
    closed = tracker.event(1, True, start)
    assert (await deliver(client, tracker, receiver, closed, secret)).json()["changed"] is True
    reopened = tracker.event(1, False, start + 40)
    assert (await deliver(client, tracker, receiver, reopened, secret)).json()["changed"] is True
    replayed = await deliver(client, tracker, receiver, closed, secret, delivery=str(uuid4()))
    assert replayed.status_code == 200 and replayed.json()["changed"] is False
    late = tracker.event(1, True, start + 20)  # closed again before the reopening, delivered late
    assert (await deliver(client, tracker, receiver, late, secret)).json()["changed"] is False
    now = await item_now(client, tenant, item)
    assert now["status"] == "Active" and now["linked_issues"][0]["state"] == "open"


async def test_mentions_in_visitor_text_notify_nobody(
    client: AsyncTestClient, tenant: Tenant, tracker: Driver
) -> None:
    """Review finding 13: visitor text went raw into the issue, so an `@org/team` in feedback notified
    people in the tracker; now no mention nor cross-repository reference survives, and the words read
    the same."""
    message = "@acme/core-team export broke\ncc @octocat, like other/repo#7 (and our #3); mail me a@b.io"
    item = await new_item(client, tenant, message=message)
    await enable(client, tenant, tracker)
    assert (await file_issue(client, tenant, item, tracker)).status_code == 201
    title, text = tracker.sent()
    for words in (title, text):
        assert not MENTION.search(words), words
        assert not re.search(r"/repo#\d", words), words
    visible = text.replace("\u2060", "")
    assert "@acme/core-team export broke" in visible and "other/repo#7 (and our #3)" in visible
    assert title.replace("\u2060", "") == "[Bug] @acme/core-team export broke"


async def test_the_console_sets_the_tracker_up_files_an_issue_and_shows_it(
    console: Console, client: AsyncTestClient, owner: User, tenant: Tenant, tracker: Driver
) -> None:
    await console.login(owner.email)
    item = await new_item(client, tenant)
    item_page = f"/projects/{tenant.project_id}/feedback/{item['id']}"
    create = f"Create {tracker.label} issue"
    assert create not in (await console.get(item_page)).text  # not set up yet
    integrations = f"/projects/{tenant.project_id}/integrations"
    assert f"Save {tracker.label}" in (await console.get(integrations)).text
    wrong, words = tracker.wrong_form
    refused = await console.post(f"{integrations}/{tracker.name}", wrong)
    assert refused.status_code == 400 and words in " ".join(errors_in(refused.text))
    saved = await console.post(f"{integrations}/{tracker.name}", tracker.form)
    assert saved.status_code == 200 and tracker.credential not in saved.text
    url_shown = re.search(rf'id="{tracker.name}-webhook-url">(http[^<]+)<', saved.text)
    secret_shown = re.search(rf'id="{tracker.name}-webhook-secret">([^<]+)<', saved.text)
    assert url_shown and secret_shown
    api = (await client.get(url(tenant, tracker), headers=tenant.headers)).json()
    assert api["webhook_url"] == url_shown.group(1)
    again = (await console.get(integrations)).text
    assert url_shown.group(1) in again and secret_shown.group(1) not in again  # the secret, once
    assert create in (await console.get(item_page)).text
    filed = await console.post(f"{item_page}/issues/{tracker.name}")
    assert filed.status_code == 200, filed.text
    assert tracker.url(1) in filed.text and tracker.key(1) in filed.text
    assert create not in filed.text  # one issue per tracker and item
    closed = await deliver(
        console.client, tracker, url_shown.group(1), tracker.event(1, True, None), secret_shown.group(1)
    )
    assert closed.json()["changed"] is True
    assert 'id="detail-status">Resolved<' in (await console.get(item_page)).text
    removed = await console.post(f"{integrations}/{tracker.name}/remove")
    assert removed.status_code == 200 and f"{tracker.label} is removed." in removed.text
    assert (await console.post(f"{integrations}/trello", tracker.form)).status_code == 404


# What is each tracker's own: how it is called and what it refuses.


async def test_github_is_called_with_a_bearer_token_and_its_api_version(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    await enable(client, tenant, github_driver(fakes.github))
    checked = fakes.github.requests[-1]
    assert (checked["method"], checked["path"]) == ("GET", f"/repos/{REPOSITORY}")
    assert checked["headers"]["authorization"] == f"Bearer {GITHUB_TOKEN}"
    assert checked["headers"]["accept"] == "application/vnd.github+json"
    assert checked["headers"]["x-github-api-version"] == "2022-11-28"


async def test_linear_gets_its_key_as_it_is_and_refuses_a_stale_delivery(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    linear = linear_driver(fakes.linear)
    saved = await enable(client, tenant, linear)
    checked = fakes.linear.requests[-1]
    assert checked["headers"]["authorization"] == LINEAR_KEY  # as it is, no Bearer
    assert json.loads(checked["body"])["variables"] == {"id": TEAM_ID}
    item = await new_item(client, tenant)
    await file_issue(client, tenant, item, linear)
    stale = fakes.linear.issue_event(1, "completed", at=time.time() - 120)
    answer = await deliver(client, linear, saved["webhook_url"], stale, saved["webhook_secret"])
    assert answer.status_code == 401
    assert (await item_now(client, tenant, item))["status"] == "New"


async def test_jira_files_an_atlassian_document_with_basic_authentication(
    client: AsyncTestClient, tenant: Tenant, fakes: Fakes
) -> None:
    jira = jira_driver(fakes.jira)
    response = await client.put(
        url(tenant, jira), json={**jira.body, "site_url": fakes.jira.url + "/"}, headers=tenant.headers
    )
    assert response.json()["site_url"] == fakes.jira.url  # kept without the slash it was typed with
    checked = fakes.jira.requests[-1]
    assert (checked["method"], checked["path"]) == ("GET", "/rest/api/3/project/ENG")
    assert checked["headers"]["authorization"].startswith("Basic ")
    item = await new_item(client, tenant)
    filed = await file_issue(client, tenant, item, jira)
    assert filed.json() == {"tracker": "jira", "url": f"{fakes.jira.url}/browse/ENG-1", "key": "ENG-1"}
    fields = json.loads(fakes.jira.requests[-1]["body"])["fields"]
    assert fields["project"] == {"key": "ENG"} and fields["issuetype"] == {"name": "Task"}
    document = fields["description"]
    assert (document["type"], document["version"]) == ("doc", 1)
    assert [node["type"] for node in document["content"]] == ["blockquote", "bulletList", "paragraph"]
    (quote,) = document["content"][0]["content"]
    assert [node.get("text") for node in quote["content"]] == [
        "The export button does nothing",
        None,  # a hard break between the lines
        "Clicked it twice.",
    ]


async def test_jira_is_called_only_at_a_public_https_site_in_production(fakes: Fakes) -> None:
    production = Settings(
        env="production", secret_key="x" * 40, database_url="sqlite+aiosqlite:///unused", base_url=BASE_URL
    )
    jira = TRACKERS["jira"]
    config = {"site_url": fakes.jira.url, "project_key": "ENG", "email": JIRA_EMAIL}
    for site in (fakes.jira.url, fakes.jira.url.replace("http://", "https://"), "https://10.1.2.3"):
        with pytest.raises(TrackerError) as refused:
            await jira.check(production, {**config, "site_url": site}, JIRA_TOKEN)
        assert refused.value.field == "site_url", site
    assert fakes.jira.requests == []
