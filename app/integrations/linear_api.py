"""The two calls Hearken makes to Linear's GraphQL API (`POST {api}/graphql`), as Linear documents them.

A personal API key goes in `Authorization` as it is (no Bearer). Checking a key reads the team
(`team(id:)`); filing runs the `issueCreate` mutation and reads the issue's `identifier` and `url`.
GraphQL errors come back in `{"errors": [{"message", "extensions": {"code", "type"}}]}` (with HTTP 400
for a refused key). Every failure becomes a TrackerError whose words are shown to people as
they are, naming the field to correct when there is one.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from app.integrations.tracker import FiledIssue, TrackerError
from app.outgoing_tls import tls_context

TIMEOUT_SECONDS = 10.0
TEAM_QUERY = "query Team($id: String!) { team(id: $id) { id key name } }"
ISSUE_CREATE = (
    "mutation IssueCreate($input: IssueCreateInput!) "
    "{ issueCreate(input: $input) { success issue { id identifier url } } }"
)


async def check_team(api_url: str, team_id: str, api_key: str) -> None:
    """Raise TrackerError unless the key is accepted and can see the team."""
    data = await _graphql(api_url, api_key, TEAM_QUERY, {"id": team_id})
    if not isinstance(data.get("team"), dict):
        raise TrackerError("Linear has no team with this id that the key can see", field="team_id")


async def create_issue(api_url: str, api_key: str, team_id: str, title: str, body: str) -> FiledIssue:
    variables = {"input": {"teamId": team_id, "title": title, "description": body}}
    data = await _graphql(api_url, api_key, ISSUE_CREATE, variables)
    created = data.get("issueCreate")
    issue = created.get("issue") if isinstance(created, dict) and created.get("success") else None
    if not isinstance(issue, dict):
        raise TrackerError("Linear did not create the issue")
    identifier, url = issue.get("identifier"), issue.get("url")
    if not isinstance(identifier, str) or not isinstance(url, str) or not url.startswith("https://"):
        raise TrackerError("Linear answered with an issue that is not its documented shape")
    return FiledIssue(key=identifier, url=url)


async def _graphql(api_url: str, api_key: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS, verify=tls_context()) as client:
            response = await client.post(
                f"{api_url}/graphql",
                json={"query": query, "variables": variables},
                headers={"Authorization": api_key, "Content-Type": "application/json"},
            )
    except httpx.TimeoutException:
        raise TrackerError(f"Linear did not answer within {TIMEOUT_SECONDS:.0f} seconds") from None
    except httpx.HTTPError:
        raise TrackerError("Linear could not be reached") from None
    try:
        answer = msgspec.json.decode(response.content)
    except (msgspec.DecodeError, RecursionError):
        answer = None
    if not isinstance(answer, dict):
        raise TrackerError(f"Linear answered HTTP {response.status_code} without its documented JSON")
    errors = answer.get("errors")
    if errors:
        raise _refusal(errors if isinstance(errors, list) else [], response.status_code)
    data = answer.get("data")
    if response.status_code != 200 or not isinstance(data, dict):
        raise TrackerError(f"Linear answered HTTP {response.status_code}")
    return data


def _refusal(errors: list[Any], status: int) -> TrackerError:
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    extensions = first.get("extensions") if isinstance(first.get("extensions"), dict) else {}
    code = str(extensions.get("code", "")).upper()
    kind = str(extensions.get("type", "")).lower()
    if status == 401 or code == "AUTHENTICATION_ERROR" or "authentication" in kind:
        return TrackerError("Linear refused the API key", field="api_key")
    if code in ("FORBIDDEN", "ENTITY_NOT_FOUND") or "not found" in str(first.get("message", "")).lower():
        return TrackerError("Linear has no team with this id that the key can see", field="team_id")
    return TrackerError(f"Linear answered HTTP {status} with an error")
