"""A local fake of the parts of GitHub's REST API Hearken uses, on 127.0.0.1 in a thread, following
GitHub's published documentation.

- `GET /repos/{owner}/{repo}` → 200 with the repository (`full_name`, `html_url`, ...);
- `POST /repos/{owner}/{repo}/issues` with `{"title", "body"}` → 201 with the issue (`number`,
  `html_url`, `state`, ...); 422 `Validation Failed` without a title.

A token is accepted as `Authorization: Bearer <token>` or `token <token>`; a missing or unknown one is
401 `Bad credentials`, a repository the token cannot see is 404 `Not Found` (GitHub hides private
repositories so), an `X-GitHub-Api-Version` GitHub does not have is 400. Errors carry GitHub's
`{"message", "documentation_url", "status"}`. Every request is recorded; `issues_event` builds the
`issues` webhook payload GitHub documents for one of the filed issues.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.json_fakes import serve_json

DOCS = "https://docs.github.com/rest"
API_VERSIONS = {"2022-11-28"}


@dataclass
class FakeGithub:
    repository: str
    token: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)
    issues_disabled: bool = False
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        with self.lock:
            self.requests.append({"method": method, "path": path, "headers": headers, "body": body})
            return self._answer(method, path, headers, body)

    def _answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        version = headers.get("x-github-api-version")
        if version is not None and version not in API_VERSIONS:
            return _error(400, f"Invalid API version: {version}")
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme.lower() not in ("bearer", "token") or token != self.token:
            return _error(401, "Bad credentials")
        repo_path = f"/repos/{self.repository}"
        if path == repo_path and method == "GET":
            return 200, self.repository_object()
        if path == f"{repo_path}/issues" and method == "POST":
            return self._create_issue(body)
        return _error(404, "Not Found")

    def _create_issue(self, body: bytes) -> tuple[int, Any]:
        if self.issues_disabled:
            return _error(410, "Issues are disabled for this repo")
        try:
            fields = json.loads(body)
        except ValueError:
            return _error(400, "Problems parsing JSON")
        if not isinstance(fields, dict) or not fields.get("title"):
            return 422, {
                "message": "Validation Failed",
                "errors": [{"resource": "Issue", "code": "missing_field", "field": "title"}],
                "documentation_url": f"{DOCS}/issues/issues#create-an-issue",
                "status": "422",
            }
        number = len(self.issues) + 1
        issue = {
            "id": 1000 + number,
            "node_id": f"I_kwDO{number:06d}",
            "url": f"{self.url}/repos/{self.repository}/issues/{number}",
            "html_url": f"https://github.com/{self.repository}/issues/{number}",
            "number": number,
            "state": "open",
            "state_reason": None,
            "title": fields["title"],
            "body": fields.get("body"),
            "labels": [],
            "comments": 0,
            "created_at": _iso(time.time()),
            "updated_at": _iso(time.time()),
        }
        self.issues.append(issue)
        return 201, issue

    def repository_object(self) -> dict[str, Any]:
        owner, name = self.repository.split("/")
        return {
            "id": 4242,
            "name": name,
            "full_name": self.repository,
            "owner": {"login": owner, "type": "Organization"},
            "private": True,
            "html_url": f"https://github.com/{self.repository}",
            "has_issues": not self.issues_disabled,
        }

    def issues_event(self, action: str, number: int, *, at: float | None = None) -> dict[str, Any]:
        """The `issues` delivery GitHub sends when an issue is closed or reopened (at `at`, or now)."""
        issue = dict(self.issues[number - 1])
        issue["state"] = "closed" if action == "closed" else "open"
        issue["state_reason"] = "completed" if action == "closed" else "reopened"
        issue["updated_at"] = _iso(time.time() if at is None else at)
        return {
            "action": action,
            "issue": issue,
            "repository": self.repository_object(),
            "sender": {"login": "octocat", "type": "User"},
        }


def _iso(moment: float) -> str:
    """GitHub's timestamps: ISO 8601 in UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


def _error(status: int, message: str) -> tuple[int, Any]:
    return status, {"message": message, "documentation_url": DOCS, "status": str(status)}


@contextmanager
def running(fake: FakeGithub, tls: ssl.SSLContext | None = None) -> Iterator[FakeGithub]:
    """Serve `fake` on a free port, over HTTPS when a server `tls` context is given."""
    with serve_json(fake.answer, tls) as url:
        fake.url = url
        yield fake
