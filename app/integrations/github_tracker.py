"""GitHub as an issue tracker: a repository's issues (`github_api.py`), deliveries signed in
`X-Hub-Signature-256`, and the `issues` event's `closed` and `reopened` actions."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import msgspec

from app.config import Settings
from app.db.models import TrackerKind
from app.integrations.github_api import check_repository, create_issue
from app.integrations.hub_signature import verify_hub_signature
from app.integrations.issue_text import IssueText
from app.integrations.tracker import FiledIssue, FormField, IssueChange, Tracker
from app.schemas.integrations import GithubIntegrationBody

CLOSED_AFTER = {"closed": True, "reopened": False}
"""The `issues` actions that open or close an issue; every other action changes nothing."""


async def _check(settings: Settings, config: Mapping[str, str], token: str) -> dict[str, str]:
    await check_repository(settings.github_api_url, config["repository"], token)
    return dict(config)


async def _file(settings: Settings, config: Mapping[str, str], token: str, text: IssueText) -> FiledIssue:
    return await create_issue(settings.github_api_url, config["repository"], token, text.title, text.body)


def _verify(body: bytes, headers: Mapping[str, str], secret: str) -> None:
    verify_hub_signature("X-Hub-Signature-256", body, headers, secret)


class _Repository(msgspec.Struct):
    full_name: str


class _Issue(msgspec.Struct):
    number: int
    updated_at: datetime


class _IssuesEvent(msgspec.Struct):
    action: str
    issue: _Issue
    repository: _Repository


def _change(body: bytes, headers: Mapping[str, str]) -> IssueChange | None:
    if headers.get("x-github-event") != "issues":
        return None  # ping and every other event
    try:
        event = msgspec.json.decode(body, type=_IssuesEvent)
    except (msgspec.DecodeError, RecursionError):
        return None
    closed = CLOSED_AFTER.get(event.action)
    if closed is None:
        return None
    key = f"{event.repository.full_name}#{event.issue.number}"
    return IssueChange(key=key, closed=closed, changed_at=event.issue.updated_at)


GITHUB = Tracker(
    kind=TrackerKind.GITHUB,
    label="GitHub",
    body=GithubIntegrationBody,
    credential="token",
    delivery_header="x-github-delivery",
    check=_check,
    file=_file,
    verify=_verify,
    change=_change,
    form=(
        FormField("repository", "repository", "GitHub repository", placeholder="owner/name"),
        FormField(
            "token",
            "token",
            "GitHub token",
            hint="A fine-grained token for this repository with Issues: read and write. Hearken checks it "
            "with GitHub, keeps it encrypted and never shows it again.",
            placeholder="github_pat_…",
        ),
    ),
    purpose="File feedback items as issues in a repository. Closing an issue resolves its item; reopening "
    "it makes the item Active again.",
    webhook_setup="In the repository's Settings → Webhooks, add a webhook with this payload URL, content "
    "type application/json, the secret Hearken showed when you saved, and the Issues event only:",
)
