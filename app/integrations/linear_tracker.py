"""Linear as an issue tracker: a team's issues over GraphQL (`linear_api.py`), deliveries signed in
`Linear-Signature` with a fresh `webhookTimestamp` (`linear_signature.py`), and `Issue` updates whose
state is of type `completed` or `canceled` (closed) or `started`, `unstarted`, `triage`, `backlog` (open)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import msgspec

from app.config import Settings
from app.db.models import TrackerKind
from app.integrations.issue_text import IssueText
from app.integrations.linear_api import check_team, create_issue
from app.integrations.linear_signature import verify_linear_signature
from app.integrations.tracker import FiledIssue, FormField, IssueChange, Tracker
from app.schemas.integrations import LinearIntegrationBody

CLOSED_STATES = {"completed", "canceled"}
OPEN_STATES = {"started", "unstarted", "triage", "backlog"}


async def _check(settings: Settings, config: Mapping[str, str], api_key: str) -> dict[str, str]:
    await check_team(settings.linear_api_url, config["team_id"], api_key)
    return dict(config)


async def _file(settings: Settings, config: Mapping[str, str], api_key: str, text: IssueText) -> FiledIssue:
    return await create_issue(settings.linear_api_url, api_key, config["team_id"], text.title, text.body)


def _verify(body: bytes, headers: Mapping[str, str], secret: str) -> None:
    verify_linear_signature(body, headers.get("linear-signature"), secret)


class _State(msgspec.Struct):
    type: str


class _Issue(msgspec.Struct):
    identifier: str
    updatedAt: datetime
    state: _State | None = None


class _IssueEvent(msgspec.Struct):
    type: str
    action: str
    data: _Issue


def _change(body: bytes, headers: Mapping[str, str]) -> IssueChange | None:
    try:
        event = msgspec.json.decode(body, type=_IssueEvent)
    except (msgspec.DecodeError, RecursionError):
        return None  # another resource type (a comment, a project)
    if event.type != "Issue" or event.action != "update" or event.data.state is None:
        return None
    state_type = event.data.state.type
    if state_type not in CLOSED_STATES | OPEN_STATES:
        return None
    return IssueChange(
        key=event.data.identifier, closed=state_type in CLOSED_STATES, changed_at=event.data.updatedAt
    )


LINEAR = Tracker(
    kind=TrackerKind.LINEAR,
    label="Linear",
    body=LinearIntegrationBody,
    credential="api_key",
    delivery_header="linear-delivery",
    check=_check,
    file=_file,
    verify=_verify,
    change=_change,
    form=(
        FormField("team_id", "team_id", "Linear team id"),
        FormField(
            "linear_api_key",
            "api_key",
            "Linear API key",
            hint="A personal API key of a member of the team. Hearken checks it with Linear, keeps it "
            "encrypted and never shows it again.",
            placeholder="lin_api_…",
        ),
    ),
    purpose="File feedback items as issues in a Linear team. An issue completed or canceled resolves its "
    "item; started again, the item is Active again.",
    webhook_setup="In Linear's Settings → API → Webhooks, add a webhook with this URL, the team, the data "
    "change event Issues, and the secret Hearken showed when you saved as its signing secret:",
    secret_prefix="lin_wh_",
)
