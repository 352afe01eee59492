"""GitHub issues for feedback: a project's repository and token, the issues filed from its items, and the
signed webhook deliveries that close and reopen those items.

The token is checked against GitHub when it is saved, and kept encrypted with the webhook's secret. A
delivery is trusted only once its signature verifies with that secret; it is acted on once (by its id and
by its body), a change older than the last one taken changes nothing, and an issue Hearken did not file
changes nothing.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from uuid import UUID

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import FeedbackItem, FeedbackStatus, GithubIntegration, Project
from app.db.secret_box import SecretBox
from app.errors import Conflict, InvalidRequest, NotFound, Unauthorized, UpstreamError
from app.integrations.deliveries import first_delivery
from app.integrations.github_api import GithubError, check_repository, create_issue
from app.integrations.github_signature import verify_github_signature
from app.integrations.integration_rows import IntegrationRows
from app.integrations.issue_text import issue_text
from app.services.attachments import FeedbackAttachments
from app.services.feedback_items import FeedbackItems
from app.services.linked_issues import LinkedIssues
from tenants.scope import OrgScope, operator_scope

RECEIVER_PATH = "/api/v1/integrations/github/{integration_id}"
TRACKER = "github"
ACTOR = "GitHub"
"""Who the feedback history names when a GitHub issue closes or reopens an item."""
STATUS_AFTER = {"closed": FeedbackStatus.RESOLVED, "reopened": FeedbackStatus.ACTIVE}
STATE_AFTER = {"closed": "closed", "reopened": "open"}


def webhook_url(base_url: str, integration: GithubIntegration) -> str:
    """The Payload URL to paste into the repository's webhook settings."""
    return base_url + RECEIVER_PATH.format(integration_id=integration.id)


class GithubIntegrations(IntegrationRows[GithubIntegration]):
    """The GitHub integration of one project; removed, its webhook URL answers 404 from now on."""

    model = GithubIntegration
    name = "GitHub"

    def __init__(
        self, session: AsyncSession, scope: OrgScope, project: Project, box: SecretBox, settings: Settings
    ) -> None:
        super().__init__(session, scope, project, box)
        self.settings = settings

    async def enable(self, repository: str, token: str) -> tuple[GithubIntegration, str]:
        """Check the token against the repository, then store both; the integration and its webhook
        secret. Saving again keeps the id and the secret, so the webhook in GitHub stays valid."""
        try:
            await check_repository(self.settings.github_api_url, repository, token)
        except GithubError as error:
            if error.status in (401, 403):
                raise InvalidRequest("token", error.words) from None
            if error.status == 404:
                raise InvalidRequest("repository", error.words) from None
            raise UpstreamError(error.words) from None
        integration = await self.find()
        secret = None if integration is None else self.box.open(integration.sealed_webhook_secret)
        new_secret = secret is None
        if secret is None:
            secret = secrets.token_hex(32)
        if integration is None:
            integration = GithubIntegration(
                project_id=self.project.id, repository=repository, sealed_token="", sealed_webhook_secret=""
            )
            self.session.add(integration)
        integration.repository = repository
        integration.sealed_token = self.box.seal(token)
        if new_secret:  # sealed again, the same secret would read as a new one in the audit log
            integration.sealed_webhook_secret = self.box.seal(secret)
        await self.session.flush()
        return integration, secret

    async def file_issue(self, item: FeedbackItem) -> tuple[str, str]:
        """File an issue for the item and keep its link; (url, key). One GitHub issue per item; without
        an integration it is a conflict with the project's state (409), not a missing item (404)."""
        integration = await self.find()
        if integration is None:
            raise Conflict("tracker: this project has no GitHub integration; set it up under Integrations")
        linked = LinkedIssues(self.session, self.scope, self.project)
        existing = [
            issue for issue in (await linked.of_items([item.id])).get(item.id, []) if issue.tracker == TRACKER
        ]
        if existing:
            raise Conflict(f"tracker: this item already has a GitHub issue: {existing[0].url}")
        token = self.box.open(integration.sealed_token)
        if token is None:
            raise UpstreamError("the GitHub token can no longer be read here; save it again in Hearken")
        attachments = await FeedbackAttachments(self.session, self.scope, self.project).of_items([item.id])
        text = issue_text(self.settings.base_url, item, attachments.get(item.id, []))
        try:
            filed = await create_issue(
                self.settings.github_api_url, integration.repository, token, text.title, text.body
            )
        except GithubError as error:
            raise UpstreamError(error.words) from None
        key = f"{integration.repository}#{filed.number}"
        await linked.link(item, TRACKER, key, filed.url)
        return filed.url, key


class _Repository(msgspec.Struct):
    full_name: str


class _Issue(msgspec.Struct):
    number: int
    updated_at: datetime


class _IssuesEvent(msgspec.Struct):
    action: str
    issue: _Issue
    repository: _Repository


async def receive_github_event(
    session: AsyncSession,
    box: SecretBox,
    integration_ref: str,
    body: bytes,
    *,
    event: str | None,
    delivery: str | None,
    signature: str | None,
) -> bool:
    """Verify and act on one delivery; True when it changed an item."""
    integration = await _integration(session, integration_ref)
    secret = box.open(integration.sealed_webhook_secret)
    if secret is None:
        raise Unauthorized("the webhook secret can no longer be read here; save the integration again")
    verify_github_signature(body, signature, secret)
    if event != "issues":
        return False  # ping and every other event: acknowledged
    if not await first_delivery(session, integration.project_id, ACTOR, delivery, body):
        return False
    try:
        payload = msgspec.json.decode(body, type=_IssuesEvent)
    except (msgspec.DecodeError, RecursionError):
        return False
    status = STATUS_AFTER.get(payload.action)
    if status is None:
        return False
    project = await session.get_one(Project, integration.project_id)
    scope = operator_scope(project.org_id, ACTOR)
    key = f"{payload.repository.full_name}#{payload.issue.number}"
    issue = await LinkedIssues(session, scope, project).find(TRACKER, key)
    if issue is None or not LinkedIssues.follow(issue, STATE_AFTER[payload.action], payload.issue.updated_at):
        return False
    items = FeedbackItems(session, scope, project)
    item = await items.get(issue.feedback_id)
    if item.status == status:
        await session.flush()
        return False
    await items.update(item, {"status": status.value})
    return True


async def _integration(session: AsyncSession, ref: str) -> GithubIntegration:
    try:
        integration_id = UUID(ref)
    except ValueError:
        integration_id = None
    integration = None if integration_id is None else await session.get(GithubIntegration, integration_id)
    if integration is None:
        raise NotFound("no GitHub integration with this id")
    return integration
