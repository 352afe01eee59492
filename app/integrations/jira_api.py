"""The two calls Hearken makes to Jira Cloud's REST API v3, as Atlassian documents them, at the
integration's own site.

The email and API token go as basic authentication. `GET {site}/rest/api/3/project/{key}` checks them on
save; `POST {site}/rest/api/3/issue` files an issue (`{"fields": {"project", "summary", "description",
"issuetype"}}`, the description in Atlassian Document Format) → 201 `{"id", "key", "self"}`; people open
it at `{site}/browse/{key}`. The site is a URL people type, so in production it must be https and every
address of its host public, checked before each call as webhook URLs are (`app/webhooks/urls.py`).
Every failure becomes a TrackerError whose words are shown to people as they are (never the token).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx
import msgspec

from app.config import Settings
from app.integrations.issue_text import ATTACHMENTS, ATTACHMENTS_NOTE, OPEN_IN_HEARKEN, IssueText
from app.integrations.tracker import FiledIssue, TrackerError
from app.outgoing_tls import tls_context
from app.webhooks.urls import NonPublicAddress, check_public

TIMEOUT_SECONDS = 10.0
ISSUE_TYPE = "Task"
"""The issue type every Jira Software and Work Management project has."""


class _Created(msgspec.Struct):
    id: str
    key: str


async def check_project(settings: Settings, site_url: str, email: str, token: str, project_key: str) -> None:
    """Raise TrackerError unless the account can see the project."""
    response = await _call(settings, "GET", site_url, f"/rest/api/3/project/{project_key}", email, token)
    if response.status_code != 200:
        raise _refusal(response)


async def create_issue(
    settings: Settings, site_url: str, email: str, token: str, project_key: str, text: IssueText
) -> FiledIssue:
    fields = {
        "project": {"key": project_key},
        "summary": text.title,
        "description": document(text),
        "issuetype": {"name": ISSUE_TYPE},
    }
    response = await _call(settings, "POST", site_url, "/rest/api/3/issue", email, token, {"fields": fields})
    if response.status_code != 201:
        raise _refusal(response)
    try:
        created = msgspec.json.decode(response.content, type=_Created)
    except (msgspec.DecodeError, RecursionError):
        raise TrackerError("Jira answered HTTP 201 with a body that is not its documented issue") from None
    return FiledIssue(key=created.key, url=f"{site_url}/browse/{created.key}")


def document(text: IssueText) -> dict[str, Any]:
    """The issue's description in Atlassian Document Format: the message quoted, the facts as a list,
    the images and the way back as links. Text nodes are text: nothing in them is a mention or markup."""
    paragraphs = [part for part in text.message.split("\n\n") if part.strip()] or [text.message or " "]
    facts = [
        _item([_text(f"{fact.label}: ", "strong"), *([_text(fact.code, "code")] if fact.code else []),
               *([_text(fact.words)] if fact.words else [])])
        for fact in text.facts
    ]  # fmt: skip
    content: list[dict[str, Any]] = [
        {"type": "blockquote", "content": [_paragraph(_lines(part)) for part in paragraphs]},
        {"type": "bulletList", "content": facts},
    ]
    if text.attachment_urls:
        content.append(_paragraph([_text(ATTACHMENTS, "strong"), _text(ATTACHMENTS_NOTE)]))
        links = [
            _item([_link(f"Image {number}", url)]) for number, url in enumerate(text.attachment_urls, start=1)
        ]
        content.append({"type": "bulletList", "content": links})
    content.append(_paragraph([_link(OPEN_IN_HEARKEN, text.item_url)]))
    return {"type": "doc", "version": 1, "content": content}


def _lines(part: str) -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = []
    for line in part.strip("\n").split("\n"):
        if nodes:
            nodes.append({"type": "hardBreak"})
        if line:
            nodes.append(_text(line))
    return nodes


def _text(words: str, mark: str | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "text", "text": words}
    if mark is not None:
        node["marks"] = [{"type": mark}]
    return node


def _link(words: str, url: str) -> dict[str, Any]:
    return {"type": "text", "text": words, "marks": [{"type": "link", "attrs": {"href": url}}]}


def _paragraph(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "paragraph", "content": nodes}


def _item(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "listItem", "content": [_paragraph(nodes)]}


async def check_site(settings: Settings, site_url: str) -> None:
    """Raise TrackerError naming `site_url` unless Hearken may call it: in production https, and a host
    whose every address is public."""
    parts = urlsplit(site_url)
    if settings.is_production and parts.scheme != "https":
        raise TrackerError("the Jira site must be an https address", field="site_url")
    if settings.webhooks_reach_private_addresses or parts.hostname is None:
        return
    try:
        await check_public(parts.hostname, parts.port or 443)
    except NonPublicAddress as exc:
        raise TrackerError(f"{exc}; Hearken calls only public addresses", field="site_url") from None


async def _call(
    settings: Settings,
    method: str,
    site_url: str,
    path: str,
    email: str,
    token: str,
    json: dict[str, Any] | None = None,
) -> httpx.Response:
    await check_site(settings, site_url)
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS, verify=tls_context()) as client:
            return await client.request(
                method,
                site_url + path,
                json=json,
                auth=httpx.BasicAuth(email, token),
                headers={"Accept": "application/json", "User-Agent": "Hearken"},
            )
    except httpx.TimeoutException:
        raise TrackerError(f"Jira did not answer within {TIMEOUT_SECONDS:.0f} seconds") from None
    except httpx.HTTPError:
        raise TrackerError("Jira could not be reached at this site", field="site_url") from None


def _refusal(response: httpx.Response) -> TrackerError:
    status = response.status_code
    if status == 401:
        return TrackerError("Jira answered HTTP 401: the email and API token were refused", field="api_token")
    if status == 403:
        return TrackerError(
            "Jira answered HTTP 403: this account may not create issues in the project", field="api_token"
        )
    if status == 404:
        return TrackerError(
            "Jira answered HTTP 404: no such project, or the account cannot see it", field="project_key"
        )
    return TrackerError(f"Jira answered HTTP {status}{_reason(response)}")


def _reason(response: httpx.Response) -> str:
    """Jira's own words for a refused issue (`errorMessages`, `errors`), which say what to fix."""
    try:
        answer = msgspec.json.decode(response.content)
    except (msgspec.DecodeError, RecursionError):
        return ""
    if not isinstance(answer, dict):
        return ""
    messages = [str(m) for m in answer.get("errorMessages") or [] if m]
    errors = answer.get("errors")
    if isinstance(errors, dict):
        messages += [f"{field}: {words}" for field, words in errors.items()]
    return f": {'; '.join(messages)[:300]}" if messages else ""
