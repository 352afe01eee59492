"""Jira Cloud as an issue tracker: a project's issues at the integration's site (`jira_api.py`),
deliveries signed in `X-Hub-Signature` (a webhook registered with a secret), and `jira:issue_updated`
events: an issue whose status is of the category `done` is closed, any other category open."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import msgspec

from app.config import Settings
from app.db.models import TrackerKind
from app.integrations.hub_signature import verify_hub_signature
from app.integrations.issue_text import IssueText
from app.integrations.jira_api import check_project, create_issue
from app.integrations.tracker import FiledIssue, FormField, IssueChange, Tracker
from app.schemas.integrations import JiraIntegrationBody

DONE = "done"
"""The status category of finished work, whatever the workflow names its statuses."""


async def _check(settings: Settings, config: Mapping[str, str], token: str) -> dict[str, str]:
    stored = {**config, "site_url": config["site_url"].rstrip("/")}
    await check_project(settings, stored["site_url"], stored["email"], token, stored["project_key"])
    return stored


async def _file(settings: Settings, config: Mapping[str, str], token: str, text: IssueText) -> FiledIssue:
    return await create_issue(
        settings, config["site_url"], config["email"], token, config["project_key"], text
    )


def _verify(body: bytes, headers: Mapping[str, str], secret: str) -> None:
    verify_hub_signature("X-Hub-Signature", body, headers, secret)


class _Category(msgspec.Struct):
    key: str


class _Status(msgspec.Struct):
    statusCategory: _Category


class _Fields(msgspec.Struct):
    status: _Status


class _Issue(msgspec.Struct):
    key: str
    fields: _Fields


class _IssueEvent(msgspec.Struct):
    webhookEvent: str
    timestamp: int
    """When the change was made, in milliseconds since the epoch."""
    issue: _Issue


def _change(body: bytes, headers: Mapping[str, str]) -> IssueChange | None:
    try:
        event = msgspec.json.decode(body, type=_IssueEvent)
    except (msgspec.DecodeError, RecursionError):
        return None  # another event (a comment, a project)
    if event.webhookEvent != "jira:issue_updated":
        return None
    return IssueChange(
        key=event.issue.key,
        closed=event.issue.fields.status.statusCategory.key == DONE,
        changed_at=datetime.fromtimestamp(event.timestamp / 1000, UTC),
    )


JIRA = Tracker(
    kind=TrackerKind.JIRA,
    label="Jira",
    body=JiraIntegrationBody,
    credential="api_token",
    delivery_header="x-atlassian-webhook-identifier",
    check=_check,
    file=_file,
    verify=_verify,
    change=_change,
    form=(
        FormField("site_url", "site_url", "Jira site", placeholder="https://your-site.atlassian.net"),
        FormField("project_key", "project_key", "Jira project key", placeholder="ENG"),
        FormField("email", "email", "Atlassian account email"),
        FormField(
            "jira_api_token",
            "api_token",
            "Jira API token",
            hint="An API token of that account (id.atlassian.com → Security → API tokens). Hearken checks "
            "it with Jira, keeps it encrypted and never shows it again.",
        ),
    ),
    purpose="File feedback items as issues in a Jira Cloud project. An issue moved to a done status "
    "resolves its item; moved back, the item is Active again.",
    webhook_setup="In Jira's Settings → System → WebHooks, create a webhook with this URL, the secret "
    "Hearken showed when you saved, and the event Issue: updated (a JQL filter such as project = ENG "
    "keeps other projects out):",
)
