"""A local fake of the parts of Jira Cloud's REST API v3 Hearken uses, on 127.0.0.1 in a thread, following
Atlassian's published documentation.

- `GET /rest/api/3/project/{projectIdOrKey}` → 200 with the project (`id`, `key`, `name`, `self`);
- `POST /rest/api/3/issue` with `{"fields": {"project": {"key"}, "summary", "description", "issuetype":
  {"name"}}}` → 201 `{"id", "key", "self"}`; the description must be an Atlassian Document
  (`{"type": "doc", "version": 1, "content": [...]}`) and the summary present, else 400 with Jira's
  `{"errorMessages": [], "errors": {field: words}}`.

Basic authentication with the account's email and API token; anything else is 401 (`errorMessages`),
a project the account cannot see 404 (Jira hides it so). Every request is recorded; `issue_event` builds
the `jira:issue_updated` webhook payload Jira documents, and people open an issue at `<site>/browse/<key>`.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.json_fakes import serve_json

CATEGORIES = {"new": "To Do", "indeterminate": "In Progress", "done": "Done"}
ISSUE_TYPES = {"Task", "Bug", "Story", "Epic"}


@dataclass
class FakeJira:
    email: str
    api_token: str
    project_key: str = "ENG"
    requests: list[dict[str, Any]] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)
    refuse_issues: bool = False
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        with self.lock:
            self.requests.append({"method": method, "path": path, "headers": headers, "body": body})
            return self._answer(method, path, headers, body)

    def _answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        expected = "Basic " + base64.b64encode(f"{self.email}:{self.api_token}".encode()).decode()
        if headers.get("authorization") != expected:
            return _errors(
                401, ["You are not authenticated. Authentication required to perform this operation"]
            )
        if method == "GET" and path.startswith("/rest/api/3/project/"):
            key = path.rsplit("/", 1)[-1]
            if key != self.project_key:
                return _errors(404, [f"No project could be found with key '{key}'."])
            return 200, {
                "id": "10000",
                "key": self.project_key,
                "name": "Engineering",
                "self": f"{self.url}/rest/api/3/project/10000",
                "projectTypeKey": "software",
            }
        if method == "POST" and path == "/rest/api/3/issue":
            return self._create_issue(body)
        return _errors(404, ["Not found"])

    def _create_issue(self, body: bytes) -> tuple[int, Any]:
        try:
            fields = json.loads(body)["fields"]
        except (ValueError, KeyError, TypeError):
            return _errors(400, ["Unexpected request body"])
        problems = {}
        if fields.get("project", {}).get("key") != self.project_key:
            problems["project"] = "valid project is required"
        if not fields.get("summary"):
            problems["summary"] = "You must specify a summary of the issue."
        description = fields.get("description")
        if not (
            isinstance(description, dict)
            and description.get("type") == "doc"
            and description.get("version") == 1
            and isinstance(description.get("content"), list)
        ):
            problems["description"] = "Operation value must be an Atlassian Document"
        if fields.get("issuetype", {}).get("name") not in ISSUE_TYPES:
            problems["issuetype"] = "Specify a valid issue type"
        if self.refuse_issues:
            problems["customfield_10020"] = "Sprint is required."
        if problems:
            return 400, {"errorMessages": [], "errors": problems}
        number = len(self.issues) + 1
        issue_id = str(10000 + number)
        issue = {
            "id": issue_id,
            "key": f"{self.project_key}-{number}",
            "self": f"{self.url}/rest/api/3/issue/{issue_id}",
            "fields": fields,
        }
        self.issues.append(issue)
        return 201, {k: issue[k] for k in ("id", "key", "self")}

    def browse_url(self, number: int) -> str:
        return f"{self.url}/browse/{self.issues[number - 1]['key']}"

    def issue_event(self, number: int, category: str, *, at: float | None = None) -> dict[str, Any]:
        """The `jira:issue_updated` delivery Jira sends when an issue moves to a status of this category
        (`new`, `indeterminate`, `done`), at `at` or now."""
        issue = self.issues[number - 1]
        status = CATEGORIES[category]
        return {
            "timestamp": int((time.time() if at is None else at) * 1000),
            "webhookEvent": "jira:issue_updated",
            "issue_event_type_name": "issue_generic",
            "user": {"accountId": "5b10a2844c20165700ede21g", "displayName": "Mia Krystof"},
            "issue": {
                "id": issue["id"],
                "self": issue["self"],
                "key": issue["key"],
                "fields": {
                    "summary": issue["fields"]["summary"],
                    "status": {
                        "name": status,
                        "statusCategory": {"id": 3, "key": category, "name": status},
                    },
                },
            },
            "changelog": {"id": "10100", "items": [{"field": "status", "toString": status}]},
        }


def _errors(status: int, messages: list[str]) -> tuple[int, Any]:
    return status, {"errorMessages": messages, "errors": {}}


@contextmanager
def running(fake: FakeJira) -> Iterator[FakeJira]:
    """Serve `fake` on a free port."""
    with serve_json(fake.answer) as url:
        fake.url = url
        yield fake
