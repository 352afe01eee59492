"""A local fake of the parts of Linear's GraphQL API Hearken uses, on 127.0.0.1 in a thread, following
Linear's published documentation.

`POST /graphql` with `{"query", "variables"}` and the personal API key in `Authorization` as it is (a
`Bearer` prefix is refused, as Linear refuses it for personal keys): the `team(id:)` query and the
`issueCreate` mutation (answering `{"success", "issue": {"id", "identifier", "url"}}`). A refused key is
HTTP 400 with `{"errors": [{"message", "extensions": {"type": "authentication error", "code":
"AUTHENTICATION_ERROR"}}]}`; an unknown team is `Entity not found` in `errors` with `data: null`. Every
request is recorded; `issue_event` builds the `Issue` webhook payload Linear documents.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.json_fakes import serve_json

STATE_NAMES = {"completed": "Done", "canceled": "Canceled", "started": "In Progress", "unstarted": "Todo"}


@dataclass
class FakeLinear:
    team_id: str
    api_key: str
    team_key: str = "ENG"
    requests: list[dict[str, Any]] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)
    refuse_issues: bool = False
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        with self.lock:
            self.requests.append({"path": path, "headers": headers, "body": body})
            return self._answer(path, headers, body)

    def _answer(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        if path != "/graphql":
            return 404, {"errors": [{"message": "Not found"}]}
        if headers.get("authorization") != self.api_key:
            return 400, {
                "errors": [
                    {
                        "message": "Authentication required, not authenticated",
                        "extensions": {
                            "type": "authentication error",
                            "code": "AUTHENTICATION_ERROR",
                            "statusCode": 401,
                            "userPresentableMessage": "You need to authenticate to access this operation.",
                        },
                    }
                ]
            }
        request = json.loads(body)
        query, variables = request.get("query", ""), request.get("variables") or {}
        if "issueCreate" in query:
            fields = variables.get("input", {})
            if fields.get("teamId") != self.team_id:
                return 200, _not_found("Team")
            if self.refuse_issues:
                return 200, {
                    "data": None,
                    "errors": [
                        {
                            "message": "Team is archived",
                            "extensions": {"type": "invalid input", "code": "INPUT_ERROR"},
                        }
                    ],
                }
            number = len(self.issues) + 1
            identifier = f"{self.team_key}-{number}"
            issue = {
                "id": str(uuid.uuid4()),
                "identifier": identifier,
                "url": f"https://linear.app/acme/issue/{identifier.lower()}/feedback",
                "title": fields.get("title"),
                "description": fields.get("description"),
            }
            self.issues.append(issue)
            return 200, {
                "data": {
                    "issueCreate": {
                        "success": True,
                        "issue": {k: issue[k] for k in ("id", "identifier", "url")},
                    }
                }
            }
        if "team(" in query:
            if variables.get("id") != self.team_id:
                return 200, _not_found("Team")
            return 200, {"data": {"team": {"id": self.team_id, "key": self.team_key, "name": "Engineering"}}}
        return 400, {
            "errors": [{"message": "Cannot query field", "extensions": {"code": "GRAPHQL_VALIDATION_FAILED"}}]
        }

    def issue_event(
        self, number: int, state_type: str, *, at: float | None = None, changed_at: float | None = None
    ) -> dict[str, Any]:
        """The `Issue` update delivery Linear sends (at `at`, or now) when an issue moves to a state of this
        type (at `changed_at`, or when it is sent)."""
        issue = self.issues[number - 1]
        sent = time.time() if at is None else at
        changed = sent if changed_at is None else changed_at
        return {
            "action": "update",
            "type": "Issue",
            "createdAt": "2026-11-27T12:00:00.000Z",
            "organizationId": "0f7a4c1e-1111-4e4e-9f9f-000000000001",
            "url": issue["url"],
            "data": {
                "id": issue["id"],
                "identifier": issue["identifier"],
                "title": issue["title"],
                "teamId": self.team_id,
                "updatedAt": _iso(changed),
                "state": {
                    "id": str(uuid.uuid4()),
                    "name": STATE_NAMES.get(state_type, state_type),
                    "type": state_type,
                },
            },
            "updatedFrom": {"stateId": str(uuid.uuid4()), "updatedAt": "2026-11-27T11:00:00.000Z"},
            "webhookTimestamp": int(sent * 1000),
            "webhookId": "0f7a4c1e-2222-4e4e-9f9f-000000000002",
        }


def _iso(moment: float) -> str:
    """Linear's timestamps: ISO 8601 in UTC, to the millisecond."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(moment)) + f".{int(moment * 1000) % 1000:03d}Z"


def _not_found(entity: str) -> dict[str, Any]:
    return {
        "data": None,
        "errors": [
            {
                "message": f"Entity not found: {entity}",
                "extensions": {
                    "type": "invalid input",
                    "code": "INPUT_ERROR",
                    "userPresentableMessage": f"Could not find referenced {entity}.",
                },
            }
        ],
    }


@contextmanager
def running(fake: FakeLinear) -> Iterator[FakeLinear]:
    """Serve `fake` on a free port."""
    with serve_json(lambda _method, path, headers, body: fake.answer(path, headers, body)) as url:
        fake.url = url
        yield fake
