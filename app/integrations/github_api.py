"""The two calls Hearken makes to GitHub's REST API, as GitHub documents them.

`GET /repos/{owner}/{repo}` checks a token on save; `POST /repos/{owner}/{repo}/issues` files an issue
(`{"title", "body"}` → 201 with `number` and `html_url`). Both send the token as a Bearer token with
GitHub's JSON media type and API version headers. Every failure becomes a TrackerError whose words are
shown to people as they are (never the token), naming the field to correct when there is one.
"""

from __future__ import annotations

import httpx
import msgspec

from app.integrations.tracker import FiledIssue, TrackerError
from app.outgoing_tls import tls_context

TIMEOUT_SECONDS = 10.0
API_VERSION = "2022-11-28"


class _Issue(msgspec.Struct):
    number: int
    html_url: str


def _headers(token: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": API_VERSION,
        "User-Agent": "Hearken",
    }


async def check_repository(api_url: str, repository: str, token: str) -> None:
    """Raise TrackerError unless the token can see the repository."""
    response = await _call("GET", f"{api_url}/repos/{repository}", token)
    if response.status_code != 200:
        raise _refusal(response)


async def create_issue(api_url: str, repository: str, token: str, title: str, body: str) -> FiledIssue:
    response = await _call(
        "POST", f"{api_url}/repos/{repository}/issues", token, json={"title": title, "body": body}
    )
    if response.status_code != 201:
        raise _refusal(response)
    try:
        issue = msgspec.json.decode(response.content, type=_Issue)
    except (msgspec.DecodeError, RecursionError):
        raise TrackerError("GitHub answered HTTP 201 with a body that is not its documented issue") from None
    if not issue.html_url.startswith(("https://", "http://")):
        raise TrackerError("GitHub answered HTTP 201 with an issue address that is not a web address")
    return FiledIssue(key=f"{repository}#{issue.number}", url=issue.html_url)


async def _call(method: str, url: str, token: str, **kwargs: object) -> httpx.Response:
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS, verify=tls_context()) as client:
            return await client.request(method, url, headers=_headers(token), **kwargs)  # type: ignore[arg-type]
    except httpx.TimeoutException:
        raise TrackerError(f"GitHub did not answer within {TIMEOUT_SECONDS:.0f} seconds") from None
    except httpx.HTTPError:
        raise TrackerError("GitHub could not be reached") from None


def _refusal(response: httpx.Response) -> TrackerError:
    status = response.status_code
    if status == 401:
        return TrackerError("GitHub answered HTTP 401: the token was refused", field="token")
    if status == 403:
        return TrackerError(
            "GitHub answered HTTP 403: the token may not do this (it needs Issues: read and write)",
            field="token",
        )
    if status == 404:
        return TrackerError(
            "GitHub answered HTTP 404: no such repository, or the token cannot see it", field="repository"
        )
    if status == 410:
        return TrackerError("GitHub answered HTTP 410: issues are turned off in this repository")
    return TrackerError(f"GitHub answered HTTP {status}")
