"""Linear issues for feedback: a project's team and API key, the issues filed from its items, and the
signed webhook deliveries that resolve and reopen those items.

The key is checked against Linear when it is saved, and kept encrypted with the webhook's secret. A
delivery is trusted only once its signature verifies and its timestamp is fresh; it is acted on once (by
its id and by its body), a change older than the last one taken changes nothing, and an issue Hearken did
not file changes nothing. An issue moved to a state of type `completed` or `canceled` resolves
the item; back to `started`, `unstarted`, `triage` or `backlog` makes it Active.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from uuid import UUID

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import FeedbackItem, FeedbackStatus, LinearIntegration, Project
from app.db.secret_box import SecretBox
from app.errors import Conflict, InvalidRequest, NotFound, Unauthorized, UpstreamError
from app.integrations.deliveries import first_delivery
from app.integrations.integration_rows import IntegrationRows
from app.integrations.issue_text import issue_text
from app.integrations.linear_api import LinearError, check_team, create_issue
from app.integrations.linear_signature import verify_linear_signature
from app.services.attachments import FeedbackAttachments
from app.services.feedback_items import FeedbackItems
from app.services.linked_issues import LinkedIssues
from tenants.scope import OrgScope, operator_scope

RECEIVER_PATH = "/api/v1/integrations/linear/{integration_id}"
TRACKER = "linear"
ACTOR = "Linear"
"""Who the feedback history names when a Linear issue resolves or reopens an item."""
CLOSED_STATES = {"completed", "canceled"}
OPEN_STATES = {"started", "unstarted", "triage", "backlog"}


def webhook_url(base_url: str, integration: LinearIntegration) -> str:
    """The URL to paste into Linear's webhook settings."""
    return base_url + RECEIVER_PATH.format(integration_id=integration.id)


class LinearIntegrations(IntegrationRows[LinearIntegration]):
    """The Linear integration of one project; removed, its webhook URL answers 404 from now on."""

    model = LinearIntegration
    name = "Linear"

    def __init__(
        self, session: AsyncSession, scope: OrgScope, project: Project, box: SecretBox, settings: Settings
    ) -> None:
        super().__init__(session, scope, project, box)
        self.settings = settings

    async def enable(self, team_id: str, api_key: str) -> tuple[LinearIntegration, str]:
        """Check the key against the team, then store both; the integration and its webhook secret.
        Saving again keeps the id and the secret, so the webhook in Linear stays valid."""
        try:
            await check_team(self.settings.linear_api_url, team_id, api_key)
        except LinearError as error:
            if error.field is not None:
                raise InvalidRequest(error.field, error.words) from None
            raise UpstreamError(error.words) from None
        integration = await self.find()
        secret = None if integration is None else self.box.open(integration.sealed_webhook_secret)
        new_secret = secret is None
        if secret is None:
            secret = "lin_wh_" + secrets.token_hex(32)
        if integration is None:
            integration = LinearIntegration(
                project_id=self.project.id, team_id=team_id, sealed_api_key="", sealed_webhook_secret=""
            )
            self.session.add(integration)
        integration.team_id = team_id
        integration.sealed_api_key = self.box.seal(api_key)
        if new_secret:  # sealed again, the same secret would read as a new one in the audit log
            integration.sealed_webhook_secret = self.box.seal(secret)
        await self.session.flush()
        return integration, secret

    async def file_issue(self, item: FeedbackItem) -> tuple[str, str]:
        """File an issue for the item and keep its link; (url, key). One Linear issue per item."""
        integration = await self.find()
        if integration is None:
            raise Conflict("tracker: this project has no Linear integration; set it up under Integrations")
        linked = LinkedIssues(self.session, self.scope, self.project)
        existing = [i for i in (await linked.of_items([item.id])).get(item.id, []) if i.tracker == TRACKER]
        if existing:
            raise Conflict(f"tracker: this item already has a Linear issue: {existing[0].url}")
        api_key = self.box.open(integration.sealed_api_key)
        if api_key is None:
            raise UpstreamError("the Linear API key can no longer be read here; save it again in Hearken")
        attachments = await FeedbackAttachments(self.session, self.scope, self.project).of_items([item.id])
        text = issue_text(self.settings.base_url, item, attachments.get(item.id, []))
        try:
            filed = await create_issue(
                self.settings.linear_api_url, api_key, integration.team_id, text.title, text.body
            )
        except LinearError as error:
            raise UpstreamError(error.words) from None
        await linked.link(item, TRACKER, filed.identifier, filed.url)
        return filed.url, filed.identifier


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


async def receive_linear_event(
    session: AsyncSession,
    box: SecretBox,
    integration_ref: str,
    body: bytes,
    *,
    delivery: str | None,
    signature: str | None,
) -> bool:
    """Verify and act on one delivery; True when it changed an item."""
    integration = await _integration(session, integration_ref)
    secret = box.open(integration.sealed_webhook_secret)
    if secret is None:
        raise Unauthorized("the webhook secret can no longer be read here; save the integration again")
    verify_linear_signature(body, signature, secret)
    if not await first_delivery(session, integration.project_id, ACTOR, delivery, body):
        return False
    try:
        event = msgspec.json.decode(body, type=_IssueEvent)
    except (msgspec.DecodeError, RecursionError):
        return False  # another resource type (a comment, a project), acknowledged
    if event.type != "Issue" or event.action != "update" or event.data.state is None:
        return False
    state_type = event.data.state.type
    if state_type in CLOSED_STATES:
        status, state = FeedbackStatus.RESOLVED, "closed"
    elif state_type in OPEN_STATES:
        status, state = FeedbackStatus.ACTIVE, "open"
    else:
        return False
    project = await session.get_one(Project, integration.project_id)
    scope = operator_scope(project.org_id, ACTOR)
    issue = await LinkedIssues(session, scope, project).find(TRACKER, event.data.identifier)
    if issue is None or issue.state == state:
        return False
    if not LinkedIssues.follow(issue, state, event.data.updatedAt):
        return False
    items = FeedbackItems(session, scope, project)
    item = await items.get(issue.feedback_id)
    if item.status == status:
        await session.flush()
        return False
    await items.update(item, {"status": status.value})
    return True


async def _integration(session: AsyncSession, ref: str) -> LinearIntegration:
    try:
        integration_id = UUID(ref)
    except ValueError:
        integration_id = None
    integration = None if integration_id is None else await session.get(LinearIntegration, integration_id)
    if integration is None:
        raise NotFound("no Linear integration with this id")
    return integration
