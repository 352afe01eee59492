"""Issue trackers for feedback, one service for all of them: a project's integration with a tracker (its
settings and credential, checked with the tracker when saved and kept encrypted with the webhook's
secret), the issues filed from its items, and the signed webhook deliveries that resolve and reopen them.

A delivery is trusted only once the tracker's signature check passes with that secret. It is acted on
once (by its delivery id and by a digest of its body, since the signature covers only the body), a change
older than the one last applied to the issue changes nothing, and an issue Hearken did not file changes
nothing. Only a change of the issue's state (open or closed) moves its item: an edit that leaves an
issue open does not reopen an item someone resolved in Hearken.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any
from uuid import UUID

import msgspec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import FeedbackItem, FeedbackStatus, Project, TrackerIntegration
from app.db.secret_box import SecretBox, secret_box
from app.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    Unauthorized,
    UpstreamError,
    missing_field,
    msgspec_violation,
)
from app.integrations.deliveries import first_delivery
from app.integrations.issue_text import issue_text
from app.integrations.tracker import FiledIssue, Tracker, TrackerError
from app.services.attachments import FeedbackAttachments
from app.services.feedback_items import FeedbackItems
from app.services.linked_issues import LinkedIssues
from app.services.projects import ProjectScoped
from tenants.scope import OrgScope, operator_scope

RECEIVER_PATH = "/api/v1/integrations/{tracker}/{integration_id}"


def webhook_url(base_url: str, integration: TrackerIntegration) -> str:
    """The URL to paste into the tracker's webhook settings."""
    return base_url + RECEIVER_PATH.format(tracker=integration.tracker, integration_id=integration.id)


class TrackerIntegrations(ProjectScoped):
    """A project's tracker integrations; one removed, its webhook URL answers 404 from then on."""

    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.box = secret_box(settings.secret_key)
        self.settings = settings

    async def all(self) -> dict[str, TrackerIntegration]:
        rows = await self.session.scalars(
            select(TrackerIntegration).where(TrackerIntegration.project_id == self.project.id)
        )
        return {row.tracker: row for row in rows}

    async def find(self, tracker: Tracker) -> TrackerIntegration | None:
        found: TrackerIntegration | None = await self.session.scalar(
            select(TrackerIntegration).where(
                TrackerIntegration.project_id == self.project.id, TrackerIntegration.tracker == tracker.kind
            )
        )
        return found

    async def get(self, tracker: Tracker) -> TrackerIntegration:
        integration = await self.find(tracker)
        if integration is None:
            raise NotFound(f"this project has no {tracker.label} integration")
        return integration

    async def remove(self, tracker: Tracker) -> None:
        """Forget the integration; issues already filed stay on their items. Removing twice is fine."""
        integration = await self.find(tracker)
        if integration is not None:
            await self.session.delete(integration)
            await self.session.flush()

    async def enable(self, tracker: Tracker, values: Mapping[str, Any]) -> tuple[TrackerIntegration, str]:
        """Check the body's rules, then the credential with the tracker, then store both; the integration
        and its webhook secret. Saving again keeps the id and the secret, so the webhook stays valid."""
        config, credential = tracker.settings_of(_body(tracker, values))
        try:
            config = await tracker.check(self.settings, config, credential)
        except TrackerError as error:
            if error.field is not None:
                raise InvalidRequest(error.field, error.words) from None
            raise UpstreamError(error.words) from None
        integration = await self.find(tracker)
        secret = None if integration is None else self.box.open(integration.sealed_webhook_secret)
        new_secret = secret is None
        if secret is None:
            secret = tracker.secret_prefix + secrets.token_hex(32)
        if integration is None:
            integration = TrackerIntegration(
                project_id=self.project.id,
                tracker=tracker.kind,
                sealed_credential="",
                sealed_webhook_secret="",
            )
            self.session.add(integration)
        integration.settings = config
        integration.sealed_credential = self.box.seal(credential)
        if new_secret:  # sealed again, the same secret would read as a new one in the audit log
            integration.sealed_webhook_secret = self.box.seal(secret)
        await self.session.flush()
        return integration, secret

    async def file_issue(self, tracker: Tracker, item: FeedbackItem) -> FiledIssue:
        """File an issue for the item and keep its link. One issue per tracker and item; without an
        integration it is a conflict with the project's state (409), not a missing item (404)."""
        integration = await self.find(tracker)
        if integration is None:
            raise Conflict(
                f"tracker: this project has no {tracker.label} integration; set it up under Integrations"
            )
        linked = LinkedIssues(self.session, self.scope, self.project)
        existing = [
            i for i in (await linked.of_items([item.id])).get(item.id, []) if i.tracker == tracker.kind
        ]
        if existing:
            raise Conflict(f"tracker: this item already has a {tracker.label} issue: {existing[0].url}")
        credential = self.box.open(integration.sealed_credential)
        if credential is None:
            raise UpstreamError(
                f"the {tracker.label} credential can no longer be read here; save it again in Hearken"
            )
        attachments = await FeedbackAttachments(self.session, self.scope, self.project).of_items([item.id])
        text = issue_text(self.settings.base_url, item, attachments.get(item.id, []))
        try:
            filed = await tracker.file(self.settings, integration.settings, credential, text)
        except TrackerError as error:
            raise UpstreamError(error.words) from None
        await linked.link(item, tracker.kind, filed.key, filed.url)
        return filed


def _body(tracker: Tracker, values: Mapping[str, Any]) -> msgspec.Struct:
    """The tracker's body from what was sent, or 400 naming the field."""
    try:
        return msgspec.convert(values, tracker.body)
    except msgspec.ValidationError as exc:
        rule, field = msgspec_violation(exc)
        if (missing := missing_field(rule)) is not None:
            raise InvalidRequest(missing, "is required") from None
        raise InvalidRequest(field or "body", rule) from None


async def receive_tracker_event(
    session: AsyncSession,
    box: SecretBox,
    tracker: Tracker,
    integration_ref: str,
    body: bytes,
    headers: Mapping[str, str],
) -> bool:
    """Verify and act on one delivery; True when it changed an item."""
    integration = await _integration(session, tracker, integration_ref)
    secret = box.open(integration.sealed_webhook_secret)
    if secret is None:
        raise Unauthorized("the webhook secret can no longer be read here; save the integration again")
    tracker.verify(body, headers, secret)
    delivery = headers.get(tracker.delivery_header)
    if not await first_delivery(session, integration.project_id, tracker.label, delivery, body):
        return False
    change = tracker.change(body, headers)
    if change is None:
        return False
    project = await session.get_one(Project, integration.project_id)
    scope = operator_scope(project.org_id, tracker.label)  # the history says the tracker changed it
    issue = await LinkedIssues(session, scope, project).find(tracker.kind, change.key)
    state = "closed" if change.closed else "open"
    if issue is None or issue.state == state or not LinkedIssues.follow(issue, state, change.changed_at):
        return False
    items = FeedbackItems(session, scope, project)
    item = await items.get(issue.feedback_id)
    status = FeedbackStatus.RESOLVED if change.closed else FeedbackStatus.ACTIVE
    if item.status == status:
        await session.flush()
        return False
    await items.update(item, {"status": status.value})
    return True


async def _integration(session: AsyncSession, tracker: Tracker, ref: str) -> TrackerIntegration:
    try:
        integration_id = UUID(ref)
    except ValueError:
        integration_id = None
    integration = None if integration_id is None else await session.get(TrackerIntegration, integration_id)
    if integration is None or integration.tracker != tracker.kind:
        raise NotFound(f"no {tracker.label} integration with this id")
    return integration
